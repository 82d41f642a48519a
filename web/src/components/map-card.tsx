import type { MapCard } from '../api/types';
import { cardTitle, layerOf } from '../lib/blast-map';
import { pluralize } from '../lib/format';
import type { PlacedCard } from '../lib/map-layout';
import { KindBadge, TierBadge } from './catalogue-badges';
import './map-card.css';

function sideText(card: MapCard): string | null {
  switch (card.role) {
    case 'caller':
      return `caller +${String(card.hop)}`;
    case 'callee':
      return `callee +${String(card.hop)}`;
    case 'both':
      return `caller and callee +${String(card.hop)}`;
    default:
      return null;
  }
}

// What a card says in its accessible name: kind, name (with the instance a database is
// on), and how the change treats it.
export function cardLabel(card: MapCard, component: boolean): string {
  const parts = [`${card.kind} ${cardTitle(card)}`];
  if (component) parts.push('component');
  const side = sideText(card);
  if (side !== null) parts.push(side);
  parts.push(card.silenced ? 'silenced' : card.shared === true ? 'shared, keeps alerting' : 'not silenced');
  return parts.join(', ');
}

type Props = {
  card: MapCard;
  at: PlacedCard;
  component: boolean;
  active: boolean;
  onHover: (key: string | null) => void;
};

// One card of the dependency map, placed by the layout. Silenced cards are tinted;
// shared infrastructure is drawn plain with a badge; components stand out.
export function MapCardView({ card, at, component, active, onHover }: Props) {
  const classes = ['map-card', `map-card-${card.role}`];
  if (component) classes.push('map-card-component');
  if (card.silenced) classes.push('map-card-silenced');
  if (card.shared === true) classes.push('map-card-shared');
  if (active) classes.push('map-card-active');
  const instance = card.details?.instance;
  const side = sideText(card);
  const pods = card.details?.pods;
  const engine = card.details?.engine;
  const tier = card.details?.tier;
  const tooltip = [card.key, instance !== undefined ? `on ${instance.key}` : null, card.silenced ? 'silenced by the change' : card.shared === true ? 'shared: other services run on it, so it keeps alerting' : 'not silenced']
    .filter((line): line is string => line !== null)
    .join('\n');

  return (
    <div
      className={classes.join(' ')}
      style={{ left: at.x, top: at.y, width: at.width, height: at.height }}
      role="group"
      aria-label={cardLabel(card, component)}
      title={tooltip}
      data-testid="map-card"
      data-key={card.key}
      data-kind={card.kind}
      data-layer={layerOf(card)}
      data-role={card.role}
      data-hop={card.hop}
      data-component={component}
      data-silenced={card.silenced}
      data-shared={card.shared === true}
      onPointerEnter={() => { onHover(card.key); }}
      onPointerLeave={() => { onHover(null); }}
    >
      <div className="map-card-name" data-testid="map-card-name">
        <span className="map-card-title">{card.name}</span>
        {instance !== undefined && (
          <span className="map-card-instance" title={instance.key}>
            <span className="visually-hidden"> · </span>on {instance.name}
          </span>
        )}
      </div>
      <div className="map-card-meta">
        <KindBadge kind={card.kind} />
        {component && <span className="map-card-focus">component</span>}
        {side !== null && <span className="map-card-side">{side}</span>}
        {pods !== undefined && <span className="map-card-side">{pluralize(pods, 'pod')}</span>}
        {engine !== undefined && instance === undefined && <span className="map-card-side">{engine}</span>}
        {card.shared === true && (
          <span className="shared-badge" data-testid="shared-badge">
            shared
          </span>
        )}
        {tier !== undefined && <TierBadge tier={tier} />}
      </div>
    </div>
  );
}
