/**
 * While an upload is on its way to storage, leaving would drop it: following a link to another page
 * of the studio asks first (a dialog), and a reload or closing the tab gets the browser's own question.
 * Links are caught before the router sees them, which spares the first load React Router's data
 * router (18.6 KB gzipped) that its own navigation blocker needs; the browser's Back button is held
 * by a copy of the page's history entry (back-guard.ts) and asks the same.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useUploadsInFlight } from '../api/uploads-in-flight';
import { holdBack, type BackHold } from './back-guard';

// The dialog (a modal and its scroll lock) stays out of the first load: most visits never need it.
const LeaveDialog = lazy(() => import('./LeaveDialog'));

/** The in-studio address a click on a link would open, or null for a click the studio lets through. */
function leavingTo(event: MouseEvent): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== '_self') || link.hasAttribute('download')) return null;
  const url = new URL(link.href);
  if (url.origin !== window.location.origin || url.pathname === window.location.pathname) return null;
  return url.pathname + url.search + url.hash;
}

export function LeaveGuard() {
  const uploading = useUploadsInFlight() > 0;
  const navigate = useNavigate();
  /** Where a link would have gone, or the back hold when it was Back. */
  const [asked, setAsked] = useState<string | BackHold | null>(null);

  useEffect(() => {
    if (!uploading) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    // Capture, on the document: before React's own listeners on the root, so the router never sees the click.
    const hold = (event: MouseEvent) => {
      const to = leavingTo(event);
      if (to === null) return;
      event.preventDefault();
      event.stopPropagation();
      setAsked(to);
    };
    window.addEventListener('beforeunload', ask);
    document.addEventListener('click', hold, true);
    const back = holdBack(window, () => setAsked(back));
    return () => {
      window.removeEventListener('beforeunload', ask);
      document.removeEventListener('click', hold, true);
      back.release();
      // A question left open when the upload ended is not asked again by the next one.
      setAsked(null);
    };
  }, [uploading]);

  // The question stands only while something is at risk: an upload that ends closes it.
  if (asked === null || !uploading) return null;
  const leave = () => {
    setAsked(null);
    if (typeof asked === 'string') void navigate(asked);
    else asked.leave();
  };
  return (
    <Suspense fallback={null}>
      <LeaveDialog onStay={() => setAsked(null)} onLeave={leave} />
    </Suspense>
  );
}
