// The club's home: start a match or tournament for the club (a member's phone), and the members,
// each opening their statistics. A member's phone also adds members before they play (one name, or
// a pasted list of one name per line), and renames, merges and removes members, each asked once
// more in the member's row before it is sent.
// Decision: a pasted list drops empty lines and, on this phone already, names that differ only in
// case or surrounding spaces (the API does the same against the club's members and says who was
// one already); an error names the line it is about.
// Decision: members are listed by matches played, most first (the regulars at the top), then by
// name; removing and merging say what stays (results) and what goes (the name, the second spelling).
import { Problem } from '../api.js';
import { append, h, replace, toast } from '../dom.js';
import { clearErrors, showErrors } from '../form.js';
import { t } from '../i18n.js';
import { problemText } from '../match-view.js';
import { addMembers, changeClub, mergeMember, removeMember, renameMember } from './api.js';
import { byPlayed, clubError, clubHeader, clubRoute, followClub, loadClub } from './common.js';

function editor(view, member, done) {
  const { club } = view;
  const panel = h('div', { class: 'member-edit', role: 'group', 'aria-label': t('club.edit_member', { name: member.name }) });
  const send = async (request, message) => {
    try {
      await request();
      toast(message);
      done();
    } catch (error) {
      toast(problemText(error));
    }
  };
  const ask = (question, yes, action) => replace(panel, h('p', {}, question), h('div', { class: 'row' },
    h('button', { type: 'button', class: 'primary', onclick: action }, yes),
    h('button', { type: 'button', onclick: form }, t('club.cancel'))));
  function form() {
    const nameId = `rename-${member.id}`;
    const intoId = `merge-${member.id}`;
    const name = h('input', { id: nameId, type: 'text', value: member.name, maxlength: 40, autocomplete: 'off' });
    const others = club.players.filter((m) => m.id !== member.id);
    const into = h('select', { id: intoId }, others.map((m) => h('option', { value: m.id }, m.name)));
    replace(panel,
      h('form', { class: 'field', onsubmit: (event) => {
        event.preventDefault();
        const wanted = name.value.trim();
        if (!wanted || wanted === member.name) return;
        ask(t('club.rename_ask', { name: member.name, new: wanted }), t('club.rename'),
          () => send(() => renameMember(club.id, member.id, wanted), t('club.renamed', { name: wanted })));
      } }, h('label', { for: nameId }, t('club.rename_label')),
      h('div', { class: 'row' }, name, h('button', { type: 'submit', class: 'secondary' }, t('club.rename')))),
      others.length > 0 && h('div', { class: 'field' }, h('label', { for: intoId }, t('club.merge_label')),
        h('p', { class: 'hint' }, t('club.merge_hint')),
        h('div', { class: 'row' }, into, h('button', { type: 'button', class: 'secondary', onclick: () => {
          const target = others.find((m) => String(m.id) === into.value);
          ask(t('club.merge_ask', { name: member.name, into: target.name }), t('club.merge'),
            () => send(() => mergeMember(club.id, member.id, target.id), t('club.merged', { name: target.name })));
        } }, t('club.merge')))),
      h('div', { class: 'field' }, h('p', { class: 'hint' }, t('club.remove_hint')),
        h('button', { type: 'button', class: 'secondary danger', onclick: () => ask(
          t('club.remove_ask', { name: member.name }), t('club.remove'),
          () => send(() => removeMember(club.id, member.id), t('club.removed', { name: member.name }))) },
        t('club.remove'))));
  }
  form();
  return panel;
}

/** The names of a pasted list: one a line, without empty lines and repeats (case and spaces ignored). */
export function pastedNames(text) {
  const seen = new Set();
  return text.split(/\r?\n/).map((line) => line.trim()).filter((name) => {
    const key = name.toLocaleLowerCase();
    if (!name || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The add box and the paste area; `done` redraws the members once some were sent. */
function adder(club, done) {
  const form = h('form', { class: 'panel add-members', novalidate: true });
  const one = h('input', { id: 'add-member', type: 'text', maxlength: 40, autocomplete: 'off', enterkeyhint: 'done' });
  const list = h('textarea', { id: 'paste-members', rows: 5, autocomplete: 'off', spellcheck: 'false',
    'aria-describedby': 'paste-hint' });
  let lines = [];
  const send = async (names, field) => {
    if (!names.length) return;
    for (const button of form.querySelectorAll('button')) button.disabled = true;
    try {
      const { players } = await addMembers(club.id, names);
      const added = players.filter((m) => m.added).length;
      toast([added && t('club.added', { n: added }), players.length - added
        && t('club.already', { n: players.length - added })].filter(Boolean).join(' · '));
      field.value = '';
      clearErrors(form);
      for (const button of form.querySelectorAll('button')) button.disabled = false;
      done();
    } catch (error) {
      for (const button of form.querySelectorAll('button')) button.disabled = false;
      // names[i] of a pasted list is its line: the error is shown under the list, naming the line.
      const errors = error instanceof Problem ? error.errors.map((e) => ({ ...e,
        message: field === list && /^names\[\d+\]$/.test(e.path) ? `${lines[Number(e.path.slice(6, -1))]}: ${e.message}` : e.message,
        path: field === list ? 'paste' : 'one' })) : [];
      showErrors(form, errors, problemText(error));
    }
  };
  replace(form, h('h2', {}, t('club.add_members')),
    h('div', { class: 'field', 'data-path': 'one' }, h('label', { for: 'add-member' }, t('club.add_name')),
      h('div', { class: 'row' }, one, h('button', { type: 'button', class: 'secondary', onclick: () => {
        lines = [one.value.trim()].filter(Boolean);
        send(lines, one);
      } }, t('club.add')))),
    h('div', { class: 'field', 'data-path': 'paste' }, h('label', { for: 'paste-members' }, t('club.paste_label')),
      list, h('p', { class: 'hint', id: 'paste-hint' }, t('club.paste_hint')),
      h('button', { type: 'button', class: 'secondary', onclick: () => {
        lines = pastedNames(list.value);
        send(lines, list);
      } }, t('club.add_list'))));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    lines = [one.value.trim()].filter(Boolean);
    send(lines, one);
  });
  return form;
}

/** The IANA zones this browser knows, the club's own among them (an older browser: that one). */
function timeZones(current) {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return known.includes(current) ? known : [current, ...known].sort();
}

/**
 * The organiser sets the club's time zone: which evening (local date) a match belongs to, for
 * the history, the seasons and the Kasse.
 */
function zonePicker(view, done) {
  const form = h('form', { class: 'panel club-zone', novalidate: true });
  // The zones' IANA names are English place names in every language of the app.
  const zone = h('select', { id: 'club-zone', lang: 'en', 'aria-describedby': 'club-zone-hint' },
    timeZones(view.club.time_zone).map((name) => h('option', { value: name, selected: name === view.club.time_zone },
      name.replaceAll('_', ' '))));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await changeClub(view.club.id, { time_zone: zone.value });
      clearErrors(form);
      toast(t('zone.saved', { zone: zone.value.replaceAll('_', ' ') }));
      done();
    } catch (error) {
      showErrors(form, error instanceof Problem ? error.errors : [], problemText(error));
    }
  });
  return replace(form, h('h2', {}, t('zone.title')),
    h('div', { class: 'field', 'data-path': 'time_zone' }, h('label', { for: 'club-zone' }, t('zone.label')),
      h('div', { class: 'row' }, zone, h('button', { type: 'submit', class: 'secondary' }, t('zone.save'))),
      h('p', { class: 'hint', id: 'club-zone-hint' }, t('zone.hint'))));
}

export async function membersScreen(root, id) {
  let view;
  try { view = await loadClub(id); } catch (error) { return clubError(root, error); }
  const list = h('ul', { class: 'members' });
  const redraw = async () => {
    try { view = await loadClub(id); } catch (error) { return clubError(root, error); }
    return draw();
  };
  function row(member) {
    const item = h('li', { 'data-member': member.id });
    const link = h('a', { class: 'member-link', href: clubRoute(id, `/p/${member.id}`) },
      h('strong', {}, member.name),
      member.aliases.length > 0 && h('span', { class: 'note' }, t('club.aliases', { names: member.aliases })),
      h('span', { class: 'note' }, t('club.played', { n: member.played })));
    const edit = view.canWrite && h('button', { type: 'button', class: 'small-button secondary',
      'aria-expanded': 'false', 'aria-label': t('club.edit_member', { name: member.name }), onclick: (event) => {
        const open = event.currentTarget.getAttribute('aria-expanded') === 'true';
        event.currentTarget.setAttribute('aria-expanded', String(!open));
        const panel = item.querySelector('.member-edit');
        if (panel) panel.remove(); else item.append(editor(view, member, redraw));
      } }, t('club.edit'));
    return append(item, h('div', { class: 'member-row' }, link, edit));
  }
  // Made once: a redraw (another phone's change) keeps what is being typed.
  const adding = view.canWrite && adder(view.club, redraw);
  function draw() {
    const members = byPlayed(view.club.players);
    replace(list, members.length ? members.map(row) : h('li', { class: 'hint' }, t('club.no_members')));
    replace(root, clubHeader(view, 'members'),
      view.canWrite && h('section', { class: 'panel hero' },
        h('a', { class: 'button primary', href: clubRoute(id, '/new') }, t('club.new_match')),
        h('a', { class: 'button secondary', href: clubRoute(id, '/t/new') }, t('club.new_tournament'))),
      h('section', { class: 'panel' }, h('h2', {}, t('club.members')), list),
      adding, view.canWrite && zonePicker(view, redraw));
  }
  draw();
  return followClub(id, () => view.club.version, redraw);
}
