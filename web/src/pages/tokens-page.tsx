import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/client';
import type { CreatedToken, Token } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { Layout } from '../components/layout';
import { useSession } from '../components/session';
import { TokenCreateForm } from '../components/token-create-form';
import { TokenSecret } from '../components/token-secret';
import { TokenTable } from '../components/token-table';
import { errorMessage } from '../lib/errors';

export function TokensPage() {
  const { session } = useSession();
  // Owners and admins create tokens (the server refuses a member with 403); a member keeps the
  // list of their own, to see and revoke what an operator made for them.
  const canCreate = session.role === 'owner' || session.role === 'admin';
  const [tokens, setTokens] = useState<Token[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  // Where tokens are used: the pipeline listener's address as this server runs it.
  const [pipelineUrl, setPipelineUrl] = useState<string | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    api.pipelineListener(abort.signal).then(
      (answer) => { if (!abort.signal.aborted) setPipelineUrl(answer.url); },
      () => undefined, // the sentence reads without the address
    );
    return () => { abort.abort(); };
  }, []);

  useEffect(() => {
    let cancelled = false;
    api.listTokens().then(
      (answer) => {
        if (cancelled) return;
        setTokens(answer.items);
        setError(null);
      },
      (caught: unknown) => {
        if (!cancelled) setError(errorMessage(caught));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [reloads]);

  const onCreated = useCallback((answer: CreatedToken) => {
    setCreated(answer);
    setTokens((current) => [answer.token, ...(current ?? []).filter((t) => t.id !== answer.token.id)]);
  }, []);

  const revoke = useCallback(async (id: string) => {
    setRevoking(id);
    setError(null);
    try {
      const { token } = await api.revokeToken(id);
      setTokens((current) => (current ?? []).map((t) => (t.id === token.id ? token : t)));
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setRevoking(null);
    }
  }, []);

  return (
    <Layout title="API tokens">
      <p className="lede muted">
        Tokens authenticate pipelines and scripts on the pipeline listener
        {pipelineUrl !== null && (
          <>
            {' at '}
            <code data-testid="tokens-pipeline-url">{pipelineUrl}</code>
          </>
        )}
        , never on this web address. A token acts as its owner; every change made with it is recorded in the audit log under the token’s name.
      </p>
      {pipelineUrl !== null && (
        <p className="lede muted" data-testid="tokens-mcp">
          Assistants (Claude Desktop, VS Code, any MCP client) connect with a token at{' '}
          <code data-testid="tokens-mcp-url">{`${pipelineUrl}/mcp`}</code>, or run <code>changeledger mcp</code> on stdio. A token with
          <code>changes:read</code> lets them ask what changed near an incident; its scopes decide which tools they see.
        </p>
      )}
      {created !== null && <TokenSecret created={created} onDismiss={() => { setCreated(null); }} />}
      {canCreate ? (
        <TokenCreateForm onCreated={onCreated} />
      ) : (
        <p className="card muted" data-testid="tokens-create-denied">
          Only owners and admins create API tokens. Ask one of them for a token, or revoke one of yours below.
        </p>
      )}
      <ErrorBanner message={error} testId="tokens-error" onRetry={() => { setReloads((n) => n + 1); }} />
      <section className="card card-flush">
        <h2 className="card-title">Tokens</h2>
        {tokens === null && error === null && <p className="muted pad">Loading tokens…</p>}
        {tokens !== null && tokens.length === 0 && (
          <p className="empty-state" data-testid="tokens-empty">
            No tokens yet.
          </p>
        )}
        {tokens !== null && tokens.length > 0 && (
          <TokenTable tokens={tokens} revoking={revoking} onRevoke={(id) => void revoke(id)} />
        )}
      </section>
    </Layout>
  );
}
