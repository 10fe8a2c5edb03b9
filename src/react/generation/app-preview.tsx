'use client';
/** The generated app in a sandboxed iframe, with reload, open in a new tab and device widths. */
import { forwardRef, useState, useSyncExternalStore } from 'react';
import { parseHttpUrl, safeHttpUrl } from '../../core/index.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { useProjectView } from './use-project-view.js';
import { cx } from '../shared/class-names.js';
import { ExternalLink } from '../shared/external-link.js';
import { outcomeSlotKey, slotRank, useFailureSlot } from '../shared/error-slots.js';
import type { WithRootProps } from '../shared/root-props.js';
import { useControllable } from '../shared/use-controllable.js';
import { phaseWords } from '../shared/phase-words.js';

/** Props of `AppPreview`: its own, plus any attribute of its root `section`. */
export type AppPreviewProps = WithRootProps<
  {
    /** The project to preview; the provider's current generation by default. */
    projectId?: string;
    /** An explicit address to preview instead of the project's. */
    url?: string;
    /** The chosen width, controlled (with `onDeviceChange`). A phone-sized viewport always shows `mobile`. */
    device?: PreviewDevice;
    /** The width to start at when not controlled: `desktop`. */
    defaultDevice?: PreviewDevice;
    /** Called when the end user picks a width. */
    onDeviceChange?: (device: PreviewDevice) => void;
  },
  'section'
>;

/** Preview widths. */
export type PreviewDevice = 'mobile' | 'tablet' | 'desktop';

const deviceWidths: Record<PreviewDevice, string> = { mobile: '390px', tablet: '768px', desktop: '100%' };
const devices: readonly PreviewDevice[] = ['mobile', 'tablet', 'desktop'];

// On a phone-sized viewport the preview starts at the phone's width and offers no wider one (it could not show it).
const phoneQuery = '(max-width: 767px)';
const subscribeToViewport = (onChange: () => void) => {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(phoneQuery);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
const isPhoneViewport = () => typeof window.matchMedia === 'function' && window.matchMedia(phoneQuery).matches;

/**
 * The sandbox for an app at `url`. `allow-same-origin` lets a cross-origin app keep its own origin
 * (cookies, storage) and is harmless there; for an app on the host page's own origin it would let the
 * app's scripts remove the sandbox and reach the page, so it is dropped.
 */
export function previewSandbox(url: string, hostOrigin: string | undefined): string {
  const sameOrigin = hostOrigin !== undefined && parseHttpUrl(url)?.origin === hostOrigin;
  return sameOrigin
    ? 'allow-scripts allow-forms allow-popups'
    : 'allow-scripts allow-forms allow-same-origin allow-popups';
}

/** Shows the live app once it is ready (or any http/https `url`). */
export const AppPreview = forwardRef<HTMLElement, AppPreviewProps>(function AppPreview(
  { projectId, url, device: deviceProp, defaultDevice = 'desktop', onDeviceChange, className, ...rest },
  ref,
) {
  const labels = useAgentLabels();
  const text = labels.appPreview;
  const view = useProjectView(projectId, { watch: 'alone' });
  // Server rendering and hydration assume a wide screen; the viewport decides right after.
  const phone = useSyncExternalStore(subscribeToViewport, isPhoneViewport, () => false);
  const [chosenDevice, setDevice] = useControllable(deviceProp, defaultDevice, onDeviceChange);
  const device = phone ? 'mobile' : chosenDevice;
  const [reloads, setReloads] = useState(0);
  // The app is previewed once there is one (or any given http(s) `url`); a follow-up changes it in place.
  const safeUrl = url !== undefined ? safeHttpUrl(url) : view.previewUrl;
  // Only while the stream reports: once stopped, the badge and the build log say so (one state, told once).
  const updating = url === undefined && safeUrl !== undefined && view.busy;
  const unsafe = url !== undefined ? safeUrl === undefined : view.phase === 'ready' && view.unsafeAppUrl;
  const state = safeUrl !== undefined ? 'ready' : unsafe ? 'unsafe' : 'empty';
  const hostOrigin = typeof window === 'undefined' ? undefined : window.location.origin;
  // A build that ended badly is told, with its next step, by the build log when one is on screen: the stage then
  // only names the phase (never "Your app will appear here" under a failure), instead of saying it a second time.
  // Alone, the stage tells it.
  const toldHere = useFailureSlot(url === undefined ? outcomeSlotKey(view) : undefined, slotRank.mention);
  const { phase } = view;

  return (
    <section
      ref={ref}
      className={cx('ae-preview', className)}
      data-state={state}
      data-device={device}
      aria-label={text.regionLabel}
      {...rest}
    >
      {safeUrl === undefined ? (
        <div className="ae-preview-empty" data-phase={view.phase}>
          {view.building && <span className="ae-spinner" aria-hidden="true" />}
          <p className="ae-preview-empty-title">
            {state === 'unsafe' ? text.unsafeUrl : phase === 'idle' ? text.empty : phaseWords(view, labels)}
          </p>
          {state !== 'unsafe' && phase !== 'idle' && toldHere && (
            <p className="ae-muted">
              {phase === 'stopped' && view.projectId === undefined ? text.stoppedUnnamed : text.waiting[phase]}
            </p>
          )}
        </div>
      ) : (
        <>
          <div className="ae-toolbar">
            {!phone && (
              <div className="ae-segmented" role="group" aria-label={text.devicesLabel}>
                {devices.map((value) => (
                  <button
                    key={value}
                    type="button"
                    className="ae-button"
                    aria-pressed={device === value}
                    onClick={() => setDevice(value)}
                  >
                    {text[value]}
                  </button>
                ))}
              </div>
            )}
            <button type="button" className="ae-button" onClick={() => setReloads((count) => count + 1)}>
              {text.reload}
            </button>
            <ExternalLink className="ae-button" href={safeUrl}>
              {text.openInNewTab}
            </ExternalLink>
            {updating && (
              <p className="ae-preview-note" role="status">
                <span className="ae-spinner" aria-hidden="true" />
                {text.updating}
              </p>
            )}
          </div>
          <div className="ae-frame-stage">
            <iframe
              // A new load when a build ends (after Stop watching too, once a poll sees it end), so a finished change
              // shows without a manual reload.
              key={`${safeUrl}#${reloads}#${view.building ? '' : view.generation?.endedAt}`}
              className="ae-frame"
              src={safeUrl}
              title={text.frameTitle}
              sandbox={previewSandbox(safeUrl, hostOrigin)}
              referrerPolicy="no-referrer"
              loading="lazy"
              // On a phone the stage is already the phone's width: the frame fills it rather than overflow it.
              style={{ width: phone ? '100%' : deviceWidths[device] }}
            />
          </div>
        </>
      )}
    </section>
  );
});
