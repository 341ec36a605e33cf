// The paper book card: a dry run's would-be offers, what became of their requests on the real
// market, and the book priced with acceptance from what the market did (or the strategy's assumed
// curve, said so), its lifetime profit and its return on the balance. Drawn from the overview's
// status.paperBook, the one computation every surface shows (docs/daemon.md, "Paper book").
import { definitions, h } from './dom.js';
import { count, counted, money, percent } from './format.js';

function acceptanceText(acceptance) {
  const interval = acceptance.interval95
    ? `95 % ${percent(acceptance.interval95.low)} to ${percent(acceptance.interval95.high)}, ${count(acceptance.n)} offer${acceptance.n === 1 ? '' : 's'}`
    : 'an assumption: nothing was sent';
  return `${acceptance.label.replace(/^acceptance: /, '')} (${percent(acceptance.rate)}; ${interval})`;
}

function returnText(capital) {
  const on = `on the balance of ${money(capital.balanceCents)}`;
  if (capital.annualReturn === null || capital.annualReturn95 === null) return `None yet ${on}`;
  return `${percent(capital.annualReturn)} a year ${on} (95 % ${percent(capital.annualReturn95.low)} to ${percent(capital.annualReturn95.high)}), at the pace of ${capital.days} days of paper offers`;
}

/** The card, or null when there is no paper book (live, and no dry-run offer ever made). */
export function paperBookCard(status) {
  const book = status.paperBook;
  if (!book) return null;
  const summary = book.summary;
  const modelled = summary.offers - summary.notModelled;
  const rows = [
    [
      'Paper offers',
      `${count(summary.offers)} (${count(summary.requests.listed)} still listed, ${count(summary.requests.gone)} gone, ${count(summary.requests.not_scanned)} not scanned since)`,
    ],
  ];
  if (modelled > 0) {
    rows.push(
      ['Acceptance', h('span', { dataset: { testid: 'paper-acceptance' } }, acceptanceText(book.acceptance))],
      ['Lifetime profit', h('strong', { dataset: { testid: 'paper-profit' } }, money(book.lifetimeProfitCents))],
      [
        '95 % interval',
        h(
          'span',
          { dataset: { testid: 'paper-interval' } },
          `${money(book.lifetimeProfit95.lowCents)} to ${money(book.lifetimeProfit95.highCents)}`,
        ),
      ],
      ['Expected loans', `${book.expectedAccepted.toFixed(1)} of ${count(modelled)}, ${money(book.expectedLentCents)} lent`],
      ['Return', h('span', { dataset: { testid: 'paper-return' } }, returnText(book.capital))],
    );
  }
  if (summary.notModelled > 0) rows.push(['Not modelled', `${counted(summary.notModelled, 'offer')} of strategies without a score`]);
  return h(
    'article',
    { class: 'card', dataset: { testid: 'card-paper-book' } },
    h('h3', {}, 'Paper book (nothing sent)'),
    definitions(rows),
    h('p', { class: 'sub', dataset: { testid: 'paper-words' } }, `${book.words}.`),
  );
}
