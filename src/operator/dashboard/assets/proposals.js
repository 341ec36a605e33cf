// Agents' offer proposals (GET /api/proposals): what an agent asked for beyond its token's
// allowance, with what the person should read first (why it needs them, the guard's verdict
// then, the bot's own view), and Approve / Reject for the operator. A link of a notification
// (`/#proposal-12`) brings that proposal to the top, highlighted, whatever its state: the
// fragment never reaches the server, so opening the link decides nothing; approving is a POST
// the signed-in operator makes by clicking.
import { ApiError, change, getJson } from './api.js';
import { byTestId, definitions, fill, h } from './dom.js';
import { money, PAGE_CLOCK_EVENT, percent, realTime, riskName, withRealTimes } from './format.js';

const LINKED = /^#proposal-(\d+)$/;

/** The proposal a link names, or null. */
function linkedId() {
  const match = LINKED.exec(window.location.hash);
  return match ? Number(match[1]) : null;
}

function strategyView(strategy) {
  if (!strategy) return 'not worked out';
  const rate = strategy.rate === null ? '' : ` at ${percent(strategy.rate)}`;
  const probability = strategy.probability === null ? '' : `, P(repay) ${percent(strategy.probability)}`;
  return `${strategy.name} would ${strategy.would}${rate}${probability}`;
}

function guardView(guard) {
  if (!guard) return '—';
  return guard.allowed ? 'allowed (asked again on approval)' : `refused: ${guard.reason ?? guard.code ?? '?'}`;
}

export function createProposals({ onDecided, onUnauthorized }) {
  const list = byTestId('proposals-list');
  const empty = byTestId('proposals-empty');
  const hint = byTestId('proposals-hint');
  const filter = byTestId('filter-proposals');
  /** The last answer, so a click re-renders without a round trip. */
  let last = { proposals: [], canApprove: false, approveNeeds: null };
  /** Messages of decisions made from this page, by proposal id (kept across refreshes). */
  const results = new Map();
  let busy = false;

  const decide = async (proposal, action) => {
    busy = true;
    render();
    try {
      const answer = await change('POST', `/api/proposals/${proposal.id}/${action}`, {});
      results.set(proposal.id, { text: answer.message, ok: answer.proposal.outcome === 'placed' || action === 'reject' });
      await refresh();
      onDecided();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) onUnauthorized();
      results.set(proposal.id, { text: error.message, ok: false });
      await refresh().catch(() => undefined);
    } finally {
      busy = false;
      render();
    }
  };

  const card = (proposal, focused) => {
    const e = proposal.explanation;
    const waiting = proposal.status === 'pending';
    const result = results.get(proposal.id);
    const blocked = !last.canApprove || busy;
    return h(
      'article',
      {
        class: `proposal${focused ? ' focused' : ''}${waiting ? ' waiting' : ''}`,
        id: `proposal-${proposal.id}`,
        dataset: { testid: 'proposal', proposalId: proposal.id, status: proposal.status },
      },
      h(
        'header',
        { class: 'proposal-head' },
        h('strong', {}, `#${proposal.id} ${proposal.agent}: offer ${percent(proposal.rate)} on request #${proposal.loanRequestId}`),
        // What happened, not the row's status: an approval that placed nothing is "done" too.
        h('span', { class: `pill pill-proposal-${proposal.verdict}`, dataset: { testid: 'proposal-status' } }, proposal.verdictLabel),
        e.dryRun ? h('span', { class: 'pill' }, 'dry run') : null,
      ),
      // The state's times are a person's (real time): said so on a simulated-clock page.
      h('p', { class: 'proposal-state', dataset: { testid: 'proposal-state' } }, withRealTimes(proposal.state)),
      definitions(
        [
          ['Amount', money(proposal.amountCents)],
          ['Risk level', riskName(proposal.riskLevel)],
          ['Term', e.loanTerms === null ? '—' : `${e.loanTerms} months`],
          ['Max rate', percent(e.maxInterestRate)],
          ['Credit score', e.creditScore ?? '—'],
          ['Funded on acceptance', proposal.automateFund ? 'yes' : 'no'],
          ['Asked', realTime(proposal.createdAt)],
          ['Expires', realTime(proposal.expiresAt)],
        ],
        { dataset: { testid: 'proposal-facts' } },
      ),
      h(
        'div',
        { class: 'proposal-why', dataset: { testid: 'proposal-explanation' } },
        h('p', {}, h('span', { class: 'muted' }, 'Why a person: '), e.why ?? '—'),
        h('p', {}, h('span', { class: 'muted' }, 'Guard when asked: '), guardView(e.guardAtProposal)),
        h('p', {}, h('span', { class: 'muted' }, "The bot's own view: "), strategyView(e.strategy)),
        e.strategy && e.strategy.reasons.length > 0
          ? h(
              'ul',
              { class: 'reasons' },
              e.strategy.reasons.map((reason) => h('li', {}, reason)),
            )
          : null,
        e.notes.map((note) => h('p', { class: 'muted' }, note)),
      ),
      waiting
        ? h(
            'div',
            { class: 'proposal-actions' },
            h(
              'button',
              {
                type: 'button',
                dataset: { testid: 'proposal-approve' },
                disabled: blocked,
                title: last.canApprove ? 'Place this offer now (the guard is asked again)' : last.approveNeeds,
                on: { click: () => void decide(proposal, 'approve') },
              },
              'Approve and place',
            ),
            h(
              'button',
              {
                type: 'button',
                class: 'secondary',
                dataset: { testid: 'proposal-reject' },
                disabled: blocked,
                title: last.canApprove ? 'Never place this offer' : last.approveNeeds,
                on: { click: () => void decide(proposal, 'reject') },
              },
              'Reject',
            ),
          )
        : null,
      result
        ? h(
            'p',
            {
              class: result.ok ? 'proposal-result state-good' : 'proposal-result state-bad',
              role: 'status',
              dataset: { testid: 'proposal-result' },
            },
            withRealTimes(result.text),
          )
        : null,
    );
  };

  function render() {
    const focusId = linkedId();
    const shown = [...last.proposals].sort((a, b) => (a.id === focusId ? -1 : b.id === focusId ? 1 : b.id - a.id));
    fill(
      list,
      shown.map((proposal) => card(proposal, proposal.id === focusId)),
    );
    empty.hidden = shown.length > 0;
    hint.textContent = last.canApprove ? 'Approving places the offer at once, the risk guard asked again.' : (last.approveNeeds ?? '');
    hint.hidden = hint.textContent === '' || shown.length === 0;
  }

  async function refresh() {
    const answer = await getJson('/api/proposals', { status: filter.value, limit: 50 });
    const focusId = linkedId();
    // A linked proposal is shown whatever the filter says (decided, expired, older than the page).
    if (focusId !== null && !answer.proposals.some((proposal) => proposal.id === focusId)) {
      const linked = await getJson(`/api/proposals/${focusId}`).catch(() => null);
      if (linked) answer.proposals.push(...linked.proposals);
    }
    const hadFocus = last.proposals.some((proposal) => proposal.id === focusId);
    last = answer;
    render();
    if (focusId !== null && !hadFocus) document.getElementById(`proposal-${focusId}`)?.scrollIntoView({ block: 'center' });
  }

  filter.addEventListener('change', () => void refresh().catch(() => undefined));
  window.addEventListener('hashchange', () => void refresh().catch(() => undefined));
  window.addEventListener(PAGE_CLOCK_EVENT, () => render());
  return { refresh };
}
