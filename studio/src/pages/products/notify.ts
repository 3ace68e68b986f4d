/** Notifications' close button has no name of its own; screen readers need one. */
export const DISMISS = { 'aria-label': 'Dismiss' } as const;
