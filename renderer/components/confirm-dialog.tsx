// A question before an action that deletes something or reaches outside the console, asked in the
// page: a modal native <dialog> that names what will be lost and how many. Focus starts on Cancel,
// the safe answer, so a stray Enter loses nothing; Escape cancels (the dialog's own cancel event).
// window.confirm would block the renderer, cannot say more than a line, and cannot be styled.
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import './confirm-dialog.css';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The confirm button in the colour of loss: the action deletes something. */
  destructive?: boolean | undefined;
  onConfirm(): void;
  onCancel(): void;
}

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  destructive,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const safe = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      safe.current?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  // Closed before it leaves the page, so focus goes back to the button that asked.
  useLayoutEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="confirm"
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Closed by `open` turning false, so the question is answered once.
        event.preventDefault();
        onCancel();
      }}
    >
      <h3 id={titleId}>{title}</h3>
      <div className="confirm-body">{children}</div>
      <div className="actions confirm-actions">
        <button ref={safe} type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className={destructive ? 'danger' : undefined} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

export interface ConfirmQuestion {
  title: string;
  /** What will be lost, and how many. */
  body: ReactNode;
  confirmLabel: string;
  destructive?: boolean;
}

/**
 * The dialog to render, and `confirm`, which opens it with a question and runs `then` only when
 * the user confirms: what was one click becomes `onClick={() => confirm({…}, () => remove(id))}`.
 */
export function useConfirm(): [ReactNode, (question: ConfirmQuestion, then: () => unknown) => void] {
  const [asked, setAsked] = useState<{ question: ConfirmQuestion; then: () => unknown }>();
  const confirm = useCallback(
    (question: ConfirmQuestion, then: () => unknown) => setAsked({ question, then }),
    [],
  );
  const answer = (yes: boolean): void => {
    setAsked(undefined);
    if (yes) void asked?.then();
  };
  // Rendered only while asked: a list of replies each with a question to ask holds no dialogs.
  const dialog = asked ? (
    <ConfirmDialog
      open
      title={asked.question.title}
      confirmLabel={asked.question.confirmLabel}
      destructive={asked.question.destructive}
      onConfirm={() => answer(true)}
      onCancel={() => answer(false)}
    >
      {asked.question.body}
    </ConfirmDialog>
  ) : null;
  return [dialog, confirm];
}
