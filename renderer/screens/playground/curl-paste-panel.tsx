// What a pasted curl command was read as, above the composer: the chat it filled in (or, for
// another call, what that call is and what the Playground takes), the server it names, what
// became of its key, and the profile to send with — one click for a stored profile of that
// server, or a new profile for it. "Import from curl…" opens a box to paste into.
import { useEffect, useId, useRef, useState } from 'react';
import type { CurlImport } from '../../../shared/curl-import';
import type { ProfileInfo } from '../../../shared/bridge';
import { ErrorMessage } from '../../components/error-message';
import { useProfiles } from '../../data/profiles';
import { newProfileFor } from '../../stores/profile-intent';
import '../../components/confirm-dialog.css';
import { chooseProfileForPaste, dismissCurlPaste, pasteCurl, useCurlPaste } from './curl-paste';

const KEY_WORDS: Record<CurlImport['key'], string> = {
  literal:
    'The key written in the command was not kept — not here, not in the log, not on disk. The console sends the key of the profile you choose.',
  variable: 'The command reads its key from a variable; the console sends the key of the profile you choose.',
  none: 'The command carries no key; the console sends the key of the profile you choose.',
};

/** A base URL as a server: origin and path, no trailing slash; undefined when it is no URL. */
function serverOf(baseUrl: string): string | undefined {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}

export function CurlPastePanel() {
  const pasted = useCurlPaste((s) => s.pasted);
  if (!pasted) return null;
  return (
    <section className="pg-curl-in" aria-label="Imported from curl">
      <div className="pg-curl-in-head">
        <strong>From a curl command</strong>
        <button
          type="button"
          className="secondary"
          aria-label="Dismiss the curl import"
          onClick={dismissCurlPaste}
        >
          ×
        </button>
      </div>
      {'error' in pasted ? (
        <ErrorMessage error={{ code: 'CURL_NOT_READ', message: pasted.error }} />
      ) : (
        <CurlResult result={pasted.result} />
      )}
    </section>
  );
}

function CurlResult({ result }: { result: CurlImport }) {
  return (
    <>
      {result.kind === 'chat' ? (
        <p className="pg-curl-in-took">
          Took {result.message !== undefined ? 'the message' : 'no message'}
          {result.agent ? (
            <>
              , agent <code>{result.agent}</code>
            </>
          ) : null}
          {result.sessionId ? (
            <>
              , session <code>{result.sessionId}</code>
            </>
          ) : null}{' '}
          and streaming {result.stream ? 'on' : 'off'}. Check them, then send.
        </p>
      ) : (
        <p role="alert" className="pg-curl-in-other">
          {result.explanation}
        </p>
      )}
      <p className="muted">{KEY_WORDS[result.key]}</p>
      <ProfileOffer server={result.server} />
      {result.notes.length > 0 ? (
        <ul className="pg-curl-in-notes">
          {result.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

function ProfileOffer({ server }: { server: string }) {
  const profiles = useProfiles().data ?? [];
  const [error, setError] = useState<unknown>();
  const matching = profiles.filter((p: ProfileInfo) => serverOf(p.baseUrl) === server);
  const active = matching.find((p) => p.active);
  return (
    <div className="pg-curl-in-server">
      <span>
        Server <code>{server}</code>
        {active ? (
          <>
            : sending with the active profile <strong>{active.name}</strong>, which is for this server.
          </>
        ) : matching.length > 0 ? (
          ': a stored profile is for this server.'
        ) : (
          ': no profile is for this server yet.'
        )}
      </span>
      {matching
        .filter((p) => !p.active)
        .map((p) => (
          <button
            key={p.id}
            type="button"
            className={active ? 'secondary' : undefined}
            onClick={() => {
              setError(undefined);
              chooseProfileForPaste(p.id).catch(setError);
            }}
          >
            Use profile {p.name}
          </button>
        ))}
      {matching.length === 0 ? (
        <button type="button" className="secondary" onClick={() => newProfileFor(server)}>
          Create a profile for it…
        </button>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
    </div>
  );
}

/**
 * "Import from curl…": a box that takes a paste and nothing typed, so a key in the command is in
 * the page only for the paste's own handler.
 */
export function CurlPasteButton() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (open && dialog && !dialog.open) dialog.showModal();
    if (!open && dialog?.open) dialog.close();
  }, [open]);
  return (
    <>
      <button type="button" className="secondary" onClick={() => setOpen(true)}>
        Import from curl…
      </button>
      <dialog
        ref={ref}
        className="confirm pg-curl-in-dialog"
        aria-labelledby={titleId}
        onCancel={(event) => {
          event.preventDefault();
          setOpen(false);
        }}
      >
        <h3 id={titleId}>Import from curl</h3>
        <p>
          Paste a curl command for a chat (<code>POST /api/v1/chat</code>): its agent, message, session id and
          stream setting fill in the composer. A key in it is not kept.
        </p>
        <textarea
          aria-label="Paste a curl command"
          className="pg-curl-in-target"
          readOnly
          rows={4}
          placeholder="Paste here (Ctrl+V or ⌘V)"
          value=""
          onPaste={(event) => {
            event.preventDefault();
            pasteCurl(event.clipboardData.getData('text/plain'));
            setOpen(false);
          }}
        />
        <div className="actions confirm-actions">
          <button type="button" className="secondary" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
