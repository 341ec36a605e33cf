// The paper book card: a dry run's would-be offers, what the models expect of them (labelled
// MODELLED: nothing was sent, nothing was accepted) and what became of their requests on the
// real market (observed). Drawn from the overview's status.paperBook (docs/daemon.md, "Paper book").
import { definitions, h } from './dom.js';
import { count, money } from './format.js';

/** The card, or null when there is no paper book (live, and no dry-run offer ever made). */
export function paperBookCard(status) {
  const book = status.paperBook;
  if (!book) return null;
  const modelled = book.offers - book.notModelled;
  const rows = [
    [
      'Paper offers',
      `${count(book.offers)} (${count(book.requests.listed)} still listed, ${count(book.requests.gone)} gone, ${count(book.requests.not_scanned)} not scanned since)`,
    ],
  ];
  if (modelled > 0) {
    rows.push(
      ['Modelled profit', h('strong', { dataset: { testid: 'paper-profit' } }, money(book.expectedProfitCents))],
      [
        'Modelled 95 % interval',
        h('span', { dataset: { testid: 'paper-interval' } }, `${money(book.interval95.lowCents)} to ${money(book.interval95.highCents)}`),
      ],
      ['Modelled acceptances', `${book.expectedAccepted.toFixed(1)} of ${count(modelled)}, ${money(book.expectedLentCents)} lent`],
    );
  }
  if (book.notModelled > 0) rows.push(['Not modelled', `${count(book.notModelled)} offers of strategies without a score`]);
  return h(
    'article',
    { class: 'card', dataset: { testid: 'card-paper-book' } },
    h('h3', {}, 'Paper book (modelled)'),
    definitions(rows),
    h(
      'p',
      { class: 'sub' },
      "Modelled: nothing was sent. P(accept) from the strategy's market response, repayment from its score; the interval assumes independent offers.",
    ),
  );
}
