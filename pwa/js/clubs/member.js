// A member's statistics per game (played, won, win rate, the game's measures on average and at
// best, streaks, last results, rating) and, against a second member, the head-to-head: per game
// who finished ahead of whom, and the matches they played together. The organiser (club token)
// also exports everything the club holds about the member (GDPR art. 15) and forgets them
// (art. 17): asked first, naming what happens; the member's results stay under a neutral name.
import { download } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { number, t } from '../i18n.js';
import { gameName, problemText } from '../match-view.js';
import { go } from '../router.js';
import { clubTokens } from '../store.js';
import { forgetMember, headToHead, memberStatistics } from './api.js';
import { byPlayed, clubError, clubHeader, clubRoute, followClub, loadClub, percent, rating } from './common.js';
import { historyEntry } from './history.js';

const measure = (value) => (value == null ? '–' : number(value, { maximumFractionDigits: 2 }));

function streakText(streak) {
  if (streak > 0) return t('club.streak_won', { n: streak });
  if (streak < 0) return t('club.streak_lost', { n: -streak });
  return '–';
}

/** Label–value rows as a two-column table, labels as row headers. */
function facts(caption, rows) {
  return h('table', { class: 'facts' }, h('caption', { class: 'sr-only' }, caption),
    h('tbody', {}, rows.filter(Boolean).map(([key, label, value]) => h('tr', { 'data-fact': key },
      h('th', { scope: 'row' }, label), h('td', { class: 'num' }, value)))));
}

function gameStatistics(game, stats) {
  const caption = t('club.statistics_in', { game: gameName(game) });
  return h('section', { class: 'panel', 'data-game': game }, h('h2', {}, gameName(game)),
    facts(caption, [
      ['played', t('club.played_label'), number(stats.played)],
      ['won', t('club.won_label'), number(stats.won)],
      ['win_rate', t('club.win_rate'), percent(stats.win_rate)],
      ...stats.measures.flatMap((m) => [
        [m.id, t(`club.measure.${m.id}`), measure(m.average)],
        [`best_${m.id}`, t(`club.measure.best_${m.id}`), measure(m.best)]]),
      ['streak', t('club.streak'), streakText(stats.streak)],
      ['longest_streak', t('club.longest_streak'), number(stats.longest_streak)],
      stats.rating && ['rating', t('club.rating'), rating(stats.rating.ordinal)],
    ]),
    stats.last.length > 0 && h('p', { class: 'last-results' }, h('span', { class: 'label' }, t('club.last_results')), ' ',
      stats.last.map((r, i) => [i ? ', ' : '', h('a', { href: `#/m/${encodeURIComponent(r.match)}` },
        `${r.won ? '★ ' : ''}${t('rank.ordinal', { n: r.rank })}`)])));
}

function headToHeadPanel(clubId, answer) {
  const { player, opponent } = answer;
  return h('section', { class: 'panel head-to-head' },
    h('h2', {}, t('club.h2h_title', { player: player.name, opponent: opponent.name })),
    answer.games.length === 0 ? h('p', { class: 'hint' }, t('club.h2h_none'))
      : answer.games.map((g) => h('div', { 'data-game': g.game }, h('h3', {}, gameName(g.game)),
        facts(t('club.h2h_in', { game: gameName(g.game) }), [
          ['played', t('club.h2h_played'), number(g.played)],
          ['player_ahead', t('club.h2h_ahead', { name: player.name }), number(g.player_ahead)],
          ['opponent_ahead', t('club.h2h_ahead', { name: opponent.name }), number(g.opponent_ahead)],
          ['tied', t('club.h2h_tied'), number(g.tied)],
          g.partners > 0 && ['partners', t('club.h2h_partners'), number(g.partners)],
          ['player_won', t('club.h2h_won', { name: player.name }), number(g.player_won)],
          ['opponent_won', t('club.h2h_won', { name: opponent.name }), number(g.opponent_won)],
        ]))),
    answer.matches.length > 0 && [h('h3', {}, t('club.h2h_matches')),
      h('ul', { class: 'recent club-history' }, answer.matches.map((entry) => historyEntry(clubId, entry)))]);
}

/** The organiser's part: the member's data as JSON, and forgetting them after asking. */
function memberData(id, member) {
  const panel = h('section', { class: 'panel member-data no-print' });
  const exportData = () => download(`/clubs/${encodeURIComponent(id)}/players/${member.id}/data`,
    `club-${id}-member-${member.id}.json`, clubTokens(id).token).catch((error) => toast(problemText(error)));
  const forget = async () => {
    try {
      const done = await forgetMember(id, member.id);
      toast(t('member.forgotten', { name: done.name }));
      go(clubRoute(id), true);
    } catch (error) {
      toast(problemText(error));
    }
  };
  function ask() {
    replace(panel, h('div', { role: 'alertdialog', 'aria-labelledby': 'forget-title', 'aria-describedby': 'forget-what' },
      h('h2', { id: 'forget-title' }, t('member.forget_ask', { name: member.name })),
      h('p', { id: 'forget-what' }, t('member.forget_what', { name: member.name, n: member.id })),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'primary danger', id: 'forget-yes', onclick: forget }, t('member.forget_yes')),
        h('button', { type: 'button', class: 'secondary', onclick: closed }, t('club.cancel')))));
    panel.querySelector('#forget-yes').focus();
  }
  function closed() {
    replace(panel, h('h2', {}, t('member.data_title')), h('p', { class: 'hint' }, t('member.data_hint')),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'secondary', id: 'member-export', onclick: exportData }, t('member.export')),
        h('button', { type: 'button', class: 'secondary danger', id: 'member-forget', onclick: ask }, t('member.forget'))));
  }
  closed();
  return panel;
}

export async function memberScreen(root, id, memberId, opponentId) {
  let view;
  async function draw() {
    const [club, member] = await Promise.all([loadClub(id), memberStatistics(id, memberId)]);
    const versus = opponentId ? await headToHead(id, memberId, opponentId) : null;
    view = club;
    const others = byPlayed(view.club.players).filter((m) => String(m.id) !== String(memberId));
    const games = Object.entries(member.games);
    replace(root, clubHeader(view, 'members'),
      h('section', { class: 'panel' }, h('h2', {}, member.name),
        member.aliases.length > 0 && h('p', { class: 'note' }, t('club.aliases', { names: member.aliases })),
        games.length === 0 && h('p', { class: 'hint' }, t('club.no_statistics')),
        others.length > 0 && h('div', { class: 'field' }, h('label', { for: 'opponent' }, t('club.h2h_against')),
          h('select', { id: 'opponent', onchange: (event) => go(clubRoute(id,
            event.target.value ? `/p/${memberId}/vs/${event.target.value}` : `/p/${memberId}`), true) },
          h('option', { value: '' }, '—'),
          others.map((m) => h('option', { value: m.id, selected: String(m.id) === String(opponentId) }, m.name))))),
      versus && headToHeadPanel(id, versus),
      games.map(([game, stats]) => gameStatistics(game, stats)),
      view.canWrite && memberData(id, member));
  }
  try { await draw(); } catch (error) { return clubError(root, error); }
  return followClub(id, () => view.club.version, async () => {
    // A failed read keeps the screen as it is: the next change, or the next visit, reads again.
    try { await draw(); } catch { /* shown as it was */ }
  });
}
