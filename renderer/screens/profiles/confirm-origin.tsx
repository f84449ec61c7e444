// A stored key goes only to the servers it was added for. Adding a profile that would send it
// elsewhere, or give a key added at the command line its first server, asks the user to type the
// key again — what only they have, not whoever holds the web host's token or can make a bridge
// call. The typed key is sent once and never kept.
import { useState, type FormEvent } from 'react';
import type { KeyInfo } from '../../../shared/bridge';

export function ConfirmOrigin(props: {
  keyInfo: KeyInfo | undefined;
  baseUrl: string;
  busy: boolean;
  /** The profile is being edited, not added. */
  editing?: boolean;
  onConfirm: (typedKey: string) => void;
  onCancel: () => void;
}) {
  const [typed, setTyped] = useState('');
  let origin = props.baseUrl;
  try {
    origin = new URL(props.baseUrl).origin;
  } catch {
    // shown as typed
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = typed;
    setTyped('');
    props.onConfirm(value);
  };
  const known = props.keyInfo?.origins ?? [];
  const name = <strong>{props.keyInfo?.name ?? 'this key'}</strong>;
  return (
    <form className="card form confirm-origin" onSubmit={submit} aria-label="Confirm the new server">
      <h2>{known.length ? 'Send this key to a new server?' : 'Send this key to its first server?'}</h2>
      <p>
        {known.length ? (
          <>
            Key {name} was added for <code>{known.join(', ')}</code>.
          </>
        ) : (
          <>
            Key {name} was added at the command line without a server, so it has not been sent anywhere yet.
          </>
        )}{' '}
        This profile would send it to <code>{origin}</code>. If you did not ask for this, cancel: another
        program may be trying to get the key.
      </p>
      <label>
        Type or paste the key again to confirm
        <input
          type="password"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          required
        />
      </label>
      <div className="actions">
        <button type="submit" disabled={props.busy || typed.trim() === ''}>
          {props.editing ? 'Confirm and save profile' : 'Confirm and add profile'}
        </button>
        <button type="button" className="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
