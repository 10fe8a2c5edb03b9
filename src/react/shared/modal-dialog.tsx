'use client';
/**
 * A modal dialog on the platform's `<dialog>`: `showModal()` puts it in the top layer above the page, makes
 * everything else inert (no focus, clicks or assistive technology outside it), moves focus into it and back
 * to where it was on close. Rendered in place, inside the provider's root, so its styles and theme apply.
 */
import { useLayoutEffect, useRef, type HTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { useLatestCallback } from './use-latest-callback.js';

/** Props of `ModalDialog`. */
export interface ModalDialogProps extends Omit<HTMLAttributes<HTMLDialogElement>, 'open' | 'onClose' | 'onCancel'> {
  /** Nothing is rendered while closed (the content starts fresh at each opening). */
  open: boolean;
  /** Escape, a press on the backdrop, or the platform closing the dialog: the owner sets `open` to false. */
  onClose: () => void;
  /** The id of the element that names the dialog (its title). */
  'aria-labelledby': string;
  children: ReactNode;
}

/** The modal dialog of the components (the deploy token dialog, the builder's sheet). */
export function ModalDialog({ open, ...props }: ModalDialogProps) {
  return open ? <OpenDialog {...props} /> : null;
}

function OpenDialog({ onClose, children, ...rest }: Omit<ModalDialogProps, 'open'>) {
  const ref = useRef<HTMLDialogElement>(null);
  const close = useLatestCallback(onClose);
  const pressedBackdrop = useRef(false);

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    // Without showModal (jsdom, very old browsers) the dialog is shown in place, still named and closable.
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
    const unlock = lockScroll(dialog.ownerDocument);
    return () => {
      unlock();
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    };
  }, []);

  return (
    // The backdrop press is a pointer shortcut: Escape and the dialog's own close button do the same by keyboard.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={ref}
      {...rest}
      // A dialog nested in this one handles its own keys and events first: only the topmost one closes.
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || event.defaultPrevented) return;
        event.preventDefault();
        close();
      }}
      onCancel={(event) => {
        if (event.target !== event.currentTarget) return;
        event.preventDefault();
        close();
      }}
      onClose={(event) => {
        // Closed by the platform itself; not the late event of a close this component made (it is open again, or gone).
        const dialog = event.currentTarget;
        if (event.target === dialog && dialog.isConnected && !dialog.open) close();
      }}
      // A press and release both on the backdrop closes it (not a text selection dragged out of the dialog);
      // closing on release leaves nothing under the pointer to be clicked through.
      onPointerDown={(event) => {
        pressedBackdrop.current = onBackdrop(event);
      }}
      onClick={(event) => {
        if (pressedBackdrop.current && onBackdrop(event)) close();
      }}
    >
      {children}
    </dialog>
  );
}

/** Whether a pointer event is on the backdrop: it lands on the dialog itself, outside its box. */
function onBackdrop(event: MouseEvent<HTMLDialogElement>): boolean {
  const dialog = event.currentTarget;
  if (event.target !== dialog) return false;
  const box = dialog.getBoundingClientRect();
  const { clientX: x, clientY: y } = event;
  return x < box.left || x > box.right || y < box.top || y > box.bottom;
}

/** Open dialogs per document: the first locks the page's scroll, the last one closed unlocks it. */
const scrollLocks = new WeakMap<Document, { count: number; unlock: () => void }>();

/** Keeps the page behind from scrolling (its scrollbar's width kept as padding, so nothing shifts). */
function lockScroll(document: Document): () => void {
  let lock = scrollLocks.get(document);
  if (lock === undefined) {
    const { body, documentElement, defaultView: view } = document;
    const { overflow, paddingRight } = body.style;
    const width = documentElement.clientWidth;
    const scrollbar = view === null || width === 0 ? 0 : view.innerWidth - width;
    if (view !== null && scrollbar > 0)
      body.style.paddingRight = `calc(${view.getComputedStyle(body).paddingRight} + ${scrollbar}px)`;
    body.style.overflow = 'hidden';
    lock = {
      count: 0,
      unlock: () => {
        body.style.overflow = overflow;
        body.style.paddingRight = paddingRight;
      },
    };
    scrollLocks.set(document, lock);
  }
  const current = lock;
  current.count++;
  return () => {
    if (--current.count > 0) return;
    scrollLocks.delete(document);
    current.unlock();
  };
}
