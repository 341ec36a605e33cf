// The live decisions table: the newest page, refreshed every few seconds, filtered by action,
// strategy and text (the server filters), older pages on demand. A row opens its explanation.
import { getJson } from './api.js';
import { byTestId, fill, h } from './dom.js';
import { clockTime, day, decidedBy, money, percent, riskName } from './format.js';

const PAGE = 50;

/** The short "why" of a row: the rate of an offer, the decisive reason of a skip in plain words. */
function why(row) {
  return row.action === 'offer' ? `offer at ${percent(row.rate)}` : row.why;
}

export function createDecisions({ openExplanation }) {
  const table = byTestId('decisions-table');
  const body = table.querySelector('tbody');
  const filters = byTestId('decision-filters');
  const older = byTestId('decisions-older');
  /** Rows shown, by decision id; ids only grow, so sorting by id is newest first. */
  let rows = new Map();
  let oldestBefore = null;
  let seenNewest = null;
  let olderLoaded = false;
  let generation = 0;

  const query = () => {
    const form = new FormData(filters);
    return { action: form.get('action'), strategy: form.get('strategy'), q: String(form.get('q') ?? '').trim() };
  };

  const rowElement = (row, fresh) =>
    h(
      'tr',
      {
        class: `clickable action-${row.action}${fresh ? ' fresh' : ''}`,
        tabindex: 0,
        dataset: { testid: 'decision-row', requestId: row.loan_request_id, action: row.action },
        title: 'Open the explanation',
        on: {
          click: () => openExplanation(row.loan_request_id),
          keydown: (event) => {
            if (event.key === 'Enter' || event.key === ' ') {
              event.preventDefault();
              openExplanation(row.loan_request_id);
            }
          },
        },
      },
      h(
        'td',
        { title: row.decided_at },
        h('span', { class: 'nowrap' }, day(row.decided_at)),
        ' ',
        h('span', { class: 'nowrap' }, clockTime(row.decided_at)),
      ),
      h('td', {}, `#${row.loan_request_id}`),
      h('td', {}, h('span', { class: `pill pill-${row.action}` }, row.action), row.dry_run ? h('span', { class: 'pill' }, 'dry') : null),
      h('td', {}, decidedBy(row)),
      h('td', { class: 'num' }, money(row.amount_cents)),
      h('td', {}, riskName(row.risk_level)),
      h('td', { class: 'num' }, percent(row.rate)),
      h('td', { class: 'num' }, percent(row.probability)),
      h('td', { class: 'why' }, why(row)),
      h('td', {}, row.offer_state ?? row.placement ?? '—'),
    );

  const render = (freshIds) => {
    const sorted = [...rows.values()].sort((a, b) => b.id - a.id);
    // A keyboard user's place survives the refresh.
    const focused = body.contains(document.activeElement) ? document.activeElement.dataset.requestId : undefined;
    fill(
      body,
      sorted.map((row) => rowElement(row, freshIds.has(row.id))),
    );
    if (focused !== undefined) body.querySelector(`tr[data-request-id="${focused}"]`)?.focus({ preventScroll: true });
    byTestId('decisions-empty').hidden = sorted.length > 0;
    older.hidden = oldestBefore === null;
  };

  /** Fetches the newest page and merges it in; a filter change starts over. */
  const refresh = async () => {
    const mine = generation;
    const answer = await getJson('/api/decisions', { limit: PAGE, ...query() });
    if (mine !== generation) return;
    const fresh = new Set();
    // Until older pages are asked for, the table is the newest page (it would grow all day).
    if (!olderLoaded) rows = new Map();
    for (const row of answer.decisions) {
      if (seenNewest !== null && row.id > seenNewest) fresh.add(row.id);
      rows.set(row.id, row);
    }
    if (!olderLoaded) oldestBefore = answer.nextBefore;
    seenNewest = Math.max(seenNewest ?? 0, ...answer.decisions.map((row) => row.id));
    byTestId('decisions-updated').textContent = `${rows.size} shown, refreshed every few seconds`;
    render(fresh);
  };

  const loadOlder = async () => {
    if (oldestBefore === null) return;
    const mine = generation;
    const answer = await getJson('/api/decisions', { limit: PAGE, before: oldestBefore, ...query() });
    if (mine !== generation) return;
    for (const row of answer.decisions) rows.set(row.id, row);
    olderLoaded = true;
    oldestBefore = answer.nextBefore;
    render(new Set());
  };

  const restart = () => {
    generation += 1;
    rows = new Map();
    oldestBefore = null;
    seenNewest = null;
    olderLoaded = false;
    return refresh();
  };

  let typing;
  filters.addEventListener('submit', (event) => event.preventDefault());
  filters.addEventListener('change', () => void restart().catch(() => undefined));
  filters.addEventListener('input', (event) => {
    if (event.target.name !== 'q') return;
    clearTimeout(typing);
    typing = setTimeout(() => void restart().catch(() => undefined), 300);
  });
  older.addEventListener('click', () => void loadOlder().catch(() => undefined));

  /** Offers the strategies of the overview in the filter (keeps the current choice). */
  const setStrategies = (names) => {
    const select = byTestId('filter-strategy');
    const known = [...select.options].map((option) => option.value).filter((v) => v !== '');
    if (known.join('\n') === names.join('\n')) return;
    const chosen = select.value;
    fill(
      select,
      h('option', { value: '' }, 'all'),
      names.map((name) => h('option', { value: name }, name)),
    );
    select.value = names.includes(chosen) ? chosen : '';
  };

  return { refresh, setStrategies };
}
