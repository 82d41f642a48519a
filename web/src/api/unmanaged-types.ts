// The wire shapes of Settings → Unmanaged changes, named from the server's OpenAPI document
// (./schema.d.ts, `npm run generate:types`) as ./types.ts does.
import type { Answer } from './types';

type Item<A> = A extends readonly (infer I)[] ? I : never;

export type UnmanagedSettings = Answer<'/api/unmanaged-settings', 'get'>;
export type ItsmChangeMatch = UnmanagedSettings['itsmChangeMatch'];
export type JiraFields = NonNullable<ItsmChangeMatch['jiraFields']>;
/** The fields a PUT (and the dry run) take; the server checks each and names the one it refuses. */
export type UnmanagedSettingsPatch = Partial<Pick<UnmanagedSettings, 'referenceRule' | 'authorizedPrincipals' | 'itsmChangeMatch' | 'deniedAccessToSecops'>>;
export type DryRun = Answer<'/api/unmanaged-settings/dry-run', 'post'>;
export type DryRunExample = Item<DryRun['examples']>;
export type ReferenceKind = keyof DryRun['byReference'];
/** Shown once: only its hash is kept. */
export type MintedItsmToken = Answer<'/api/organizations/{id}/itsm-webhook-token', 'post', 201>;
export type ItsmTicket = Item<Answer<'/api/itsm/tickets', 'get'>['tickets']>;
