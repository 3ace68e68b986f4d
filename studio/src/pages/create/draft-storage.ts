/** Where the New video draft is kept: sessionStorage, where a browser allows it (a private window may not); the draft is a convenience. */
import { DRAFT_KEY } from './draft';

export const draftStorage = {
  read: () => {
    try {
      return sessionStorage.getItem(DRAFT_KEY);
    } catch {
      return null;
    }
  },
  write: (text: string | null) => {
    try {
      if (text === null) sessionStorage.removeItem(DRAFT_KEY);
      else sessionStorage.setItem(DRAFT_KEY, text);
    } catch {
      // Not kept: the form still works.
    }
  },
};
