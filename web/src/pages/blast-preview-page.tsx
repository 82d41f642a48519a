import { useState } from 'react';
import { BlastPreview } from '../components/blast-preview';
import { Layout } from '../components/layout';
import { Link } from '../components/router';
import { emptyBlastDraft, type BlastDraft } from '../lib/blast-preview';

// The blast radius preview on its own page; the change editor embeds the same panel.
export function BlastPreviewPage() {
  const [draft, setDraft] = useState<BlastDraft>(emptyBlastDraft);
  return (
    <Layout title="Blast radius preview">
      <p className="lede muted">
        What a change of these components would silence, computed from the{' '}
        <Link to="/catalogue">catalogue</Link> as a registration would — nothing is stored.
      </p>
      <BlastPreview draft={draft} onDraftChange={setDraft} />
    </Layout>
  );
}
