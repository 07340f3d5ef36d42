// The club endpoints, each request with the club's token held on this phone (the club token of a
// member, else the view token): a club's members and results are never public.
import { authHeaders, call, phoneHeaders } from '../api.js';
import { clubTokens } from '../store.js';

const base = (id) => `/clubs/${encodeURIComponent(id)}`;

/** The club token when this phone holds it (it writes), else the view token (it reads). */
export function clubBearer(id) {
  const { token, view } = clubTokens(id);
  return authHeaders(token || view);
}

function query(params) {
  const pairs = Object.entries(params).filter(([, value]) => value != null && value !== '');
  return pairs.length ? `?${new URLSearchParams(pairs)}` : '';
}

export const clubRead = (id, path = '', params = {}) =>
  call(`${base(id)}${path}${query(params)}`, { headers: clubBearer(id) });

export const clubWrite = (id, path, method, body) =>
  call(`${base(id)}${path}`, { method, body, headers: clubBearer(id) });

export const createClub = (name) => call('/clubs', { method: 'POST', body: { name } });
export const getClub = (id) => clubRead(id);
export const ladder = (id, game) => clubRead(id, '/ratings', { game });
export const ratingHistory = (id, game, player) => clubRead(id, '/ratings/history', { game, player });
export const memberStatistics = (id, member) => clubRead(id, `/players/${member}`);
export const history = (id, filters) => clubRead(id, '/history', filters);
export const headToHead = (id, player, opponent) => clubRead(id, '/head-to-head', { player, opponent });
export const clubPads = (id) => clubRead(id, '/pads');

export const addMembers = (id, names) => clubWrite(id, '/players', 'POST', { names });
export const renameMember = (id, member, name) => clubWrite(id, `/players/${member}`, 'PATCH', { name });
export const mergeMember = (id, member, into) => clubWrite(id, `/players/${member}/merge`, 'POST', { into });
export const removeMember = (id, member) => clubWrite(id, `/players/${member}`, 'DELETE');

// The club's money: a period's settlement (tonight when neither date is given), the Kasse, and
// the payments into it; each payment names this phone (X-Device-Id), as a match's rounds do.
export const settlement = (id, from, to) => clubRead(id, '/settlement', { from, to });
export const kasse = (id) => clubRead(id, '/kasse');
export const payments = (id) => clubRead(id, '/payments');
export const recordPayment = (id, payment) => call(`${base(id)}/payments`, { method: 'POST', body: payment,
  headers: { ...clubBearer(id), ...phoneHeaders() } });
export const forgetMember = (id, member) => clubWrite(id, `/players/${member}/forget`, 'POST');
export const changeClub = (id, change) => clubWrite(id, '', 'PATCH', change);
