'use client';
/** The prompt form: new project (build or design) or follow-up, with validation, cancel and refusal errors. */
import { forwardRef, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  isDeployable,
  isGenerationBusy,
  isOutOfCredits,
  isPromptLongEnough,
  mayHaveStarted,
  type GenerationActionResult,
  type GenerationMode,
} from '../../core/index.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { useGeneration } from './use-generation.js';
import { useProjectView } from './use-project-view.js';
import { useAgentContext } from '../provider/agent-context.js';
import { isolated } from '../shared/outside-text.js';
import { cx } from '../shared/class-names.js';
import type { WithRootProps } from '../shared/root-props.js';
import { useLatestCallback } from '../shared/use-latest-callback.js';
import { BuyCreditsAction, canBuyCredits } from '../shared/buy-credits-action.js';
import { ErrorAlert } from '../shared/error-alert.js';
import { useRetryCountdown } from '../shared/use-retry-countdown.js';
import { errorCopy, quotaCopy } from '../shared/error-copy.js';
import {
  goneSentenceSlotKey,
  outcomeSlotKey,
  quotaSlotKey,
  slotRank,
  useFailureSlot,
  useToldSentence,
} from '../shared/error-slots.js';
import { useAgentFormat } from '../provider/use-agent-format.js';
import { useUsedUpQuota } from '../usage/use-usage.js';

/** Props of `GeneratePanel`: its own, plus any attribute of its root `form`. */
export type GeneratePanelProps = WithRootProps<
  {
    /** Send follow-ups to this project. Without it, the panel starts new projects and offers a follow-up after one completes. */
    projectId?: string;
    defaultMode?: GenerationMode;
    /** Called once per submitted generation when it has ended (after recovery, if the stream was cut). */
    onComplete?: (result: GenerationActionResult) => void;
    /** Offers "New project" after a project (default true; off where a toolbar offers it already). */
    offerNewProject?: boolean;
    /** The "Buy credits" button's action when a request is refused for want of credits. */
    onBuyCredits?: (() => void) | undefined;
    /** Where the "Buy credits" link goes when there is no `onBuyCredits` (http/https only). */
    buyCreditsUrl?: string | undefined;
  },
  'form'
>;

const modes: readonly GenerationMode[] = ['build', 'design'];

/** A prompt form that generates a project or refines one. */
export const GeneratePanel = forwardRef<HTMLFormElement, GeneratePanelProps>(function GeneratePanel(
  {
    projectId,
    defaultMode = 'build',
    onComplete,
    offerNewProject = true,
    onBuyCredits,
    buyCreditsUrl,
    className,
    ...rest
  },
  ref,
) {
  const labels = useAgentLabels();
  const format = useAgentFormat();
  const text = labels.generatePanel;
  const { generation, generate, followUp, stopWatching } = useGeneration(projectId);
  // Given a project this store has no generation of, the panel follows its status (the shared poller), as the log does.
  const view = useProjectView(projectId, { watch: 'alone' });
  const { store } = useAgentContext();
  const [startNew, setStartNew] = useState(false);
  const [prompt, setPrompt] = useState('');
  const [mode, setMode] = useState<GenerationMode>(defaultMode);
  const [clientError, setClientError] = useState<string | undefined>(undefined);
  const callOnComplete = useLatestCallback(onComplete);
  const pendingRef = useRef<Promise<GenerationActionResult> | undefined>(undefined);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const id = useId();

  const shown = startNew && !isGenerationBusy(generation) ? undefined : generation;
  const status = shown?.status ?? 'idle';
  const running = isGenerationBusy(shown);
  // The build goes on where this panel does not stream it: another tab or an earlier visit (no generation here: the
  // view's `building` is its status poll's), or on the server after "Stop watching" (the view's phase is `stopped`).
  const buildingUnwatched = !running && view.building && (shown !== undefined || projectId !== undefined);
  const gone = view.phase === 'gone';
  // A follow-up stays a follow-up whatever happened; a new project offers one once it has completed, or while its
  // build goes on unwatched: the panel is that project's, not a new one's. A project that is gone takes none.
  const followUpProject =
    projectId ??
    (shown?.projectId !== undefined &&
    !gone &&
    (shown.kind === 'followUp' || isDeployable(shown) || view.phase === 'ready' || buildingUnwatched)
      ? shown.projectId
      : undefined);
  // A follow-up waits for that build to end, and the panel says so, as the build log does.
  const followUpHeld = followUpProject !== undefined && buildingUnwatched;
  // A project that is gone is told, with its next step, by the build log when one is on screen; alone, by the panel.
  const goneToldHere = useFailureSlot(gone ? outcomeSlotKey(view) : undefined, slotRank.mention);
  // The given project is gone: nothing can be sent to it.
  const goneHeld = followUpProject !== undefined && gone;
  // Where the held button's reason is said: here, or the build log's alert when it tells it.
  const goneToldAt = useToldSentence(goneHeld ? goneSentenceSlotKey(view) : undefined, slotRank.mention, `${id}-gone`);
  const refusal = shown?.refused === true ? shown.error : undefined;
  const serverPromptErrors = refusal?.fieldErrors?.prompt;
  const fieldError = clientError ?? (serverPromptErrors === undefined ? undefined : serverPromptErrors.join(' '));
  const generalError =
    refusal !== undefined && serverPromptErrors === undefined && (!gone || goneToldHere) ? refusal : undefined;
  // Lost on the network before any answer, the request may have reached the server: not "could not be started".
  const lostOnTheWay = mayHaveStarted(shown);

  // A stopped build named late does not turn the new project the person is typing into that project's follow-up.
  const [seenFollowUpProject, setSeenFollowUpProject] = useState(followUpProject);
  if (followUpProject !== seenFollowUpProject) {
    setSeenFollowUpProject(followUpProject);
    if (seenFollowUpProject === undefined && view.phase === 'stopped' && projectId === undefined && prompt.trim())
      setStartNew(true);
  }
  // A rate limit holds the submit button until its countdown (shown in the alert) reaches zero.
  const secondsLeft = useRetryCountdown(generalError);
  const waiting = secondsLeft !== undefined && secondsLeft > 0;
  // Out of credits, buying them is the next step (here or in the build log): sending again is not the primary one.
  const outOfCredits = isOutOfCredits(shown);
  // The end user's quota is used up, as far as the store knows (a UsageMeter or useUsage loaded it): sending
  // would only be refused, so the button waits and says until when (a refusal already says it in its alert).
  const quota = useUsedUpQuota();
  const quotaUsedUp = quota !== undefined && !running;
  const quotaHint =
    quotaUsedUp && generalError?.code !== 'quota_exceeded' ? quotaCopy(quota, labels.errors, format) : undefined;
  // What holds the send button, and the same for a submit that comes another way (a script's `requestSubmit`).
  const held = running || waiting || quotaUsedUp || followUpHeld || goneHeld;
  // The build log's failure says it already when it is on screen (its next step): the button points at its words.
  const quotaToldAt = useToldSentence(
    quotaHint === undefined ? undefined : quotaSlotKey,
    slotRank.mention,
    `${id}-quota`,
  );

  // Why the submit button is held, said here or (told once) by the build log: the element that says it.
  const goneSaidAt = goneToldHere ? `${id}-gone` : goneToldAt === `${id}-gone` ? undefined : goneToldAt;
  const quotaSaidAt = quotaHint === undefined ? undefined : quotaToldAt;
  const heldBecause = followUpHeld ? `${id}-building` : goneHeld ? goneSaidAt : quotaSaidAt;

  // Focus follows a new refusal: the prompt when it is the prompt's fault, the error box otherwise.
  const focusedError = useRef(refusal);
  useEffect(() => {
    if (refusal === undefined || focusedError.current === refusal) return;
    focusedError.current = refusal;
    if (refusal.fieldErrors?.prompt !== undefined) textareaRef.current?.focus();
    else alertRef.current?.focus();
  }, [refusal]);

  // A prompt leaves the box once a generation with it starts, whoever sent it: this form, or the build log's
  // "Try again" after the prompt had come back to the box.
  // Adjusted while rendering, on the change, as React advises for state that follows another value.
  const runningPrompt = running ? shown?.prompt : undefined;
  const [seenRunningPrompt, setSeenRunningPrompt] = useState(runningPrompt);
  if (runningPrompt !== seenRunningPrompt) {
    setSeenRunningPrompt(runningPrompt);
    if (runningPrompt !== undefined && prompt.trim() === runningPrompt) setPrompt('');
  }

  // Keyboard users keep their place: submit → cancel while running, cancel → prompt afterwards. Only when they were
  // in this panel: a build started elsewhere, or resumed after a reload, leaves focus where it is (and moving it
  // there forced a layout mid-build: 15-45 ms at 4x CPU throttling).
  const wasRunning = useRef(running);
  const focusWithin = useRef(false);
  useEffect(() => {
    if (wasRunning.current === running) return;
    wasRunning.current = running;
    if (!focusWithin.current) return;
    const moveFocus = () => {
      const active = document.activeElement;
      if (running && (active === null || active === document.body || active === submitRef.current))
        cancelRef.current?.focus();
      if (!running && (active === null || active === document.body)) textareaRef.current?.focus();
    };
    if (typeof requestAnimationFrame !== 'function') {
      moveFocus();
      return;
    }
    // In the next frame, which lays the new controls out anyway: focusing them here forced a style and layout pass
    // of its own in the task that rendered them (20-28 ms at 4x CPU throttling).
    const frame = requestAnimationFrame(moveFocus);
    return () => cancelAnimationFrame(frame);
  }, [running]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (held) return;
    const trimmed = prompt.trim();
    if (!isPromptLongEnough(trimmed)) {
      setClientError(text.promptTooShort);
      textareaRef.current?.focus();
      return;
    }
    // Only what changes: a render in the click's task would hold it longer (the store's own publish comes after it).
    if (clientError !== undefined) setClientError(undefined);
    const promise =
      followUpProject === undefined
        ? generate({ prompt: trimmed, mode })
        : followUp(followUpProject, { prompt: trimmed });
    if (startNew) setStartNew(false);
    // A double click gets the same promise back from the store: report its outcome once.
    if (pendingRef.current === promise) return;
    pendingRef.current = promise;
    // Sent prompts live in the conversation (the box empties when their generation starts, see above); one that
    // was refused or that ended without its result (no credits, a failed build) comes back to the box, so sending
    // it again never means typing it again.
    void promise.then((result) => {
      if (pendingRef.current === promise) pendingRef.current = undefined;
      // Not a change for a project that is gone: it has nowhere to go, and the form is now a new project's.
      const goneNow = result.error?.kind === 'not_found' && followUpProject !== undefined;
      if ((result.outcome === 'failed' || result.outcome === 'credits_exhausted') && !goneNow)
        setPrompt((current) => current || trimmed);
      callOnComplete(result);
    });
  }

  const promptId = `${id}-prompt`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const headingId = `${id}-heading`;
  const submitLabel = running ? text.submitting : followUpProject === undefined ? text.submit : text.followUpSubmit;

  return (
    <form
      ref={ref}
      className={cx('ae-panel', className)}
      data-state={status}
      aria-labelledby={headingId}
      aria-busy={running}
      noValidate
      {...rest}
      onFocus={(event) => {
        focusWithin.current = true;
        rest.onFocus?.(event);
      }}
      onBlur={(event) => {
        // A focused control that disappears (the submit button while running) blurs towards nothing: still here.
        const next = event.relatedTarget;
        if (next !== null && !event.currentTarget.contains(next)) focusWithin.current = false;
        rest.onBlur?.(event);
      }}
      // Sending is the panel's own: a given onSubmit cannot replace it.
      onSubmit={submit}
    >
      <h2 id={headingId} className="ae-title">
        {followUpProject === undefined ? text.heading : text.followUpHeading}
      </h2>
      {followUpProject !== undefined && (
        <p className="ae-muted">
          {text.followUpTarget(view.name === undefined ? text.unnamedProject : isolated(view.name))}
        </p>
      )}
      <div className="ae-field">
        <label htmlFor={promptId} className="ae-label">
          {followUpProject === undefined ? text.promptLabel : text.followUpPromptLabel}
        </label>
        <textarea
          id={promptId}
          ref={textareaRef}
          className="ae-textarea"
          // The prompt runs the way its writer writes, whatever the screen's language.
          dir="auto"
          rows={4}
          value={prompt}
          required
          disabled={running}
          placeholder={followUpProject === undefined ? text.promptPlaceholder : text.followUpPromptPlaceholder}
          aria-invalid={fieldError === undefined ? undefined : true}
          aria-describedby={fieldError === undefined ? hintId : `${hintId} ${errorId}`}
          onChange={(event) => {
            setPrompt(event.target.value);
            if (clientError !== undefined) setClientError(undefined);
          }}
        />
        <p id={hintId} className="ae-hint">
          {followUpProject === undefined ? text.promptHint : text.followUpPromptHint}
        </p>
        {fieldError !== undefined && (
          <p id={errorId} className="ae-field-error">
            {fieldError}
          </p>
        )}
      </div>
      {followUpProject === undefined && (
        <fieldset className="ae-modes" disabled={running}>
          <legend className="ae-label">{text.modeLegend}</legend>
          {modes.map((value) => (
            <div key={value} className="ae-mode" data-state={mode === value ? 'checked' : 'unchecked'}>
              <input
                type="radio"
                id={`${id}-mode-${value}`}
                name={`${id}-mode`}
                value={value}
                checked={mode === value}
                aria-describedby={`${id}-mode-${value}-description`}
                onChange={() => setMode(value)}
              />
              <label htmlFor={`${id}-mode-${value}`}>{value === 'build' ? text.modeBuild : text.modeDesign}</label>
              <span id={`${id}-mode-${value}-description`} className="ae-hint">
                {value === 'build' ? text.modeBuildDescription : text.modeDesignDescription}
              </span>
            </div>
          ))}
        </fieldset>
      )}
      <ErrorAlert
        ref={alertRef}
        error={generalError}
        title={
          lostOnTheWay
            ? text.connectionDroppedTitle
            : shown?.kind === 'followUp'
              ? text.followUpErrorTitle
              : text.errorTitle
        }
        text={
          !lostOnTheWay
            ? undefined
            : shown?.kind === 'followUp'
              ? text.followUpConnectionDroppedHint
              : text.connectionDroppedHint
        }
        context="generation"
        action={
          generalError?.kind === 'insufficient_credits' && canBuyCredits(onBuyCredits, buyCreditsUrl) ? (
            <BuyCreditsAction onBuyCredits={onBuyCredits} url={buyCreditsUrl} label={text.buyCredits} primary />
          ) : undefined
        }
      />
      {quotaHint !== undefined && quotaToldAt === `${id}-quota` && (
        <p id={quotaToldAt} className="ae-hint">
          {quotaHint}
        </p>
      )}
      {followUpHeld && (
        <p id={`${id}-building`} className="ae-hint">
          {text.followUpWhenBuilt}
        </p>
      )}
      {goneHeld && goneToldHere && view.error !== undefined && (
        <p id={`${id}-gone`} className="ae-hint">
          {errorCopy(view.error, labels.errors, 'project')}
        </p>
      )}
      <div className="ae-actions">
        <button
          ref={submitRef}
          type="submit"
          className={cx('ae-button', !outOfCredits && 'ae-button-primary')}
          disabled={held}
          aria-describedby={heldBecause}
        >
          {submitLabel}
        </button>
        {running && (
          // The API has no cancel: the stream closes, and the store follows the build by polling until it ends.
          <button ref={cancelRef} type="button" className="ae-button" onClick={stopWatching}>
            {text.cancel}
          </button>
        )}
        {offerNewProject && projectId === undefined && followUpProject !== undefined && !running && (
          <button
            type="button"
            className="ae-button ae-button-quiet"
            onClick={() => {
              setStartNew(true);
              setPrompt('');
              setClientError(undefined);
              // The whole stage starts over; the old project stays in the store and its conversation.
              if (projectId === undefined) store.getState().newProject();
            }}
          >
            {text.newProject}
          </button>
        )}
      </div>
    </form>
  );
});
