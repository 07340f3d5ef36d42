// One entry module per game id; each exports sides(match), roundCells(match, round), entryForm(ctx),
// and may export chartTotals(match): the running totals its chart shows first (score-chart.js).
// Each is loaded when a match of its game is first opened, not before the start screen shows.
const MODULES = {
  'sea-change': './sea-change.js', 'seven-seals': './seven-seals.js', 'tschau-sepp': './tschau-sepp.js',
  'score-pad': './score-pad.js',
};

export const gameModule = async (id) => (MODULES[id] ? import(MODULES[id]) : undefined);
