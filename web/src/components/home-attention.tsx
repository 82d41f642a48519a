import type { AttentionItem, AttentionKind } from '../lib/home';
import { Link } from './router';
import './home-change-row.css';

const labels: Record<AttentionKind, string> = {
  'case-unauthorized': 'unauthorized',
  'case-denied': 'denied',
  mapping: 'mapping',
  classification: 'tier missing',
  'approval-overdue': 'approval overdue',
  expired: 'expired',
  'past-window': 'past its window',
  'not-started': 'never started',
  delivery: 'delivery failed',
  'review-overdue': 'review overdue',
  'review-due': 'review due',
  'template-demoted': 'template demoted',
};

// What needs a person, each with the page where it is fixed.
export function HomeAttention({ items }: { items: readonly AttentionItem[] }) {
  return (
    <ul className="home-list">
      {items.map((item) => (
        <li key={item.key} className="home-row" data-testid="home-attention-item" data-kind={item.kind}>
          <div className="home-row-main">
            <span className={`home-attention-kind home-attention-${item.kind}`}>{labels[item.kind]}</span>
            <Link to={item.href} className="mono home-row-id" data-testid="home-attention-link">
              {item.label}
            </Link>
            <Link to={item.href} className="home-row-title ellipsis">
              {item.title}
            </Link>
          </div>
          <div className="muted small home-row-meta">{item.reason}</div>
        </li>
      ))}
    </ul>
  );
}
