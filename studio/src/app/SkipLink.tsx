/**
 * "Skip to content": the first thing the keyboard reaches on every page, shown when focused, moving
 * focus past the header and navigation into the page's main region (id MAIN_ID, focusable by script).
 */
import classes from './skip-link.module.css';

export const MAIN_ID = 'main';

export function SkipLink() {
  return (
    <a
      className={classes.skip}
      href={`#${MAIN_ID}`}
      onClick={(event) => {
        // Focus, not only scroll: the next Tab goes on from inside the page, and no #main lands in the address.
        const main = document.getElementById(MAIN_ID);
        if (!main) return;
        event.preventDefault();
        main.focus();
      }}
    >
      Skip to content
    </a>
  );
}
