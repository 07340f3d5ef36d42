// One entry module per game id; each exports sides(match), roundCells(match, round), entryForm(ctx),
// and may export chartTotals(match): the running totals its chart shows first (score-chart.js).
import * as seaChange from './sea-change.js';
import * as sevenSeals from './seven-seals.js';
import * as tschauSepp from './tschau-sepp.js';

const MODULES = { 'sea-change': seaChange, 'seven-seals': sevenSeals, 'tschau-sepp': tschauSepp };

export const gameModule = (id) => MODULES[id];
