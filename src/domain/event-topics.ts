/** The marketplace's event topics (marketplace 6.2): one name, used by the listener, the daemon and the sandbox. */
export const NEW_LOAN_REQUEST_TOPIC = 'new_loan_request_created';
