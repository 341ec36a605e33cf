// The agents' proposals (docs/agent-connector.md, "Proposals"): an offer beyond a token's allowance
// waits for a person, who approves or rejects it; the running daemon places what was approved.
export { approveProposal, rejectProposal } from './decide-proposal.js';
export { proposalLink } from './proposal-link.js';
export { explanationOf, proposalHeadline, proposalStateText } from './proposal-text.js';
