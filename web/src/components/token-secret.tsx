import type { CreatedToken } from '../api/types';
import { SecretBox } from './secret-box';

export function TokenSecret({ created, onDismiss }: { created: CreatedToken; onDismiss: () => void }) {
  return (
    <SecretBox
      testId="token-secret"
      title={<>Token “{created.token.name}” created</>}
      aside={<>id {created.token.id}</>}
      asideClassName="mono muted small"
      warning="Copy this secret now. It will not be shown again — if you lose it, revoke the token and create a new one."
      value={created.secret}
      copyLabel="Copy"
      dismissLabel="I have stored it"
      onDismiss={onDismiss}
    />
  );
}
