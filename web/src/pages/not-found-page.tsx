import { Layout } from '../components/layout';
import { Link } from '../components/router';

export function NotFoundPage() {
  return (
    <Layout title="Page not found">
      <p className="muted" data-testid="not-found">
        There is nothing at this address. Go to the <Link to="/audit">audit log</Link>.
      </p>
    </Layout>
  );
}
