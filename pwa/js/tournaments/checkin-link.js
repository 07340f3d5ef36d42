// The check-in link a tournament's QR code holds (dashboard and board): the app's check-in screen
// with the tournament's code, which only the organiser's reads carry.
import { tournamentRoute } from './common.js';

export const checkInLink = (tournament) =>
  `${location.origin}${location.pathname}${tournamentRoute(tournament.id)}/check-in?code=${encodeURIComponent(tournament.check_in_code)}`;

/** Players may check in: before round 1, or later where the tournament takes late check-ins. */
export const checkInOpen = (tournament) => !!tournament.check_in_code && tournament.status !== 'finished'
  && (tournament.current_round === 0 || tournament.late_check_in);
