import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import type { Blast } from '../api/types';
import {
  isComponentCard,
  mapLayers,
  readLayers,
  visibleMap,
  writeLayers,
  type LayerId,
  type MapDirection,
  type MapHops,
  type VisibleMap,
} from '../lib/blast-map';
import { errorMessage } from '../lib/errors';
import { pluralize } from '../lib/format';
import { fitZoom, layoutMap, openingView, type MapLayout } from '../lib/map-layout';
import { MapCardView } from './map-card';
import { useSession } from './session';
import './dependency-map.css';

// The change drawn as Focus mode does: the components as focus cards, their callers to the
// left and callees to the right (+0 / +1 / +2, Callers / Callees / Both), the runs-on chain
// below. Layer chips choose which kinds of card are drawn (remembered per person); a hidden
// card's runs-on links are bridged. Layers never change what the change silences.

type Props = {
  blast: Blast;
  // Keys of the change's components: always drawn, as focus cards.
  componentKeys: ReadonlySet<string>;
  idPrefix?: string;
  // Where the drawing comes from when it is not the stored snapshot alone.
  caption?: string;
};

const hopChoices: readonly MapHops[] = [0, 1, 2];
const directions: readonly { id: MapDirection; label: string }[] = [
  { id: 'callers', label: 'Callers' },
  { id: 'callees', label: 'Callees' },
  { id: 'both', label: 'Both' },
];
const zoomSteps = [0.4, 0.5, 0.65, 0.8, 1, 1.25, 1.5] as const;

// The viewport is as tall as the map (plus its padding) up to the height the stylesheet allows.
const VIEWPORT_PAD = 40;
function fitScale(layout: MapLayout, box: HTMLElement): number {
  const tallest = Math.min(Math.max(360, window.innerHeight * 0.68), 780);
  return fitZoom(layout, { width: box.clientWidth, height: tallest - VIEWPORT_PAD }, zoomSteps[0]);
}

function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

type Laid = { layout: MapLayout; of: VisibleMap; blast: Blast } | { error: string; of: VisibleMap; blast: Blast };

export function DependencyMap({ blast, componentKeys, idPrefix = 'map', caption }: Props) {
  const { session } = useSession();
  const userId = session.user.id;
  const markerId = `${useId().replace(/[^a-zA-Z0-9_-]/g, '')}-arrow`;
  const [chosenHops, setChosenHops] = useState<MapHops | null>(null);
  const [direction, setDirection] = useState<MapDirection>('both');
  const [layers, setLayers] = useState<ReadonlySet<LayerId>>(() => readLayers(browserStorage(), userId));
  const [zoom, setZoom] = useState(1);
  const [laid, setLaid] = useState<Laid | null>(null);
  const [hovered, setHovered] = useState<string | null>(null);
  const viewport = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; y: number; left: number; top: number; id: number } | null>(null);

  const maxHops: MapHops = blast.hops >= 2 ? 2 : 1;
  const hops: MapHops = Math.min(chosenHops ?? maxHops, maxHops) as MapHops;
  const visible = useMemo(() => visibleMap(blast, componentKeys, { hops, direction, layers }), [blast, componentKeys, hops, direction, layers]);

  useEffect(() => {
    let current = true;
    layoutMap(visible.cards, visible.edges, componentKeys).then(
      (layout) => { if (current) setLaid({ layout, of: visible, blast }); },
      (caught: unknown) => { if (current) setLaid({ error: errorMessage(caught), of: visible, blast }); },
    );
    return () => { current = false; };
  }, [visible, componentKeys, blast]);

  // A new blast radius opens fitted: zoomed out until every card shows (as Fit does). When even
  // the smallest zoom cannot show them all, or after "100%", the viewport scrolls to the
  // components instead, snapped so that no card is cut at its left edge.
  const centredOn = useRef<Blast | null>(null);
  const opening = useRef<'fit' | 'centre'>('fit');
  const [recentre, setRecentre] = useState(0);
  useLayoutEffect(() => {
    const box = viewport.current;
    if (box === null || laid === null || !('layout' in laid) || centredOn.current === laid.blast) return;
    if (opening.current === 'fit') {
      opening.current = 'centre';
      const scale = fitScale(laid.layout, box);
      if (scale !== zoom) {
        // The zoom first; this effect runs again at the new zoom and places the view.
        setZoom(scale);
        return;
      }
    }
    centredOn.current = laid.blast;
    const view = openingView(laid.layout, laid.of.cards.filter((c) => isComponentCard(c, componentKeys)).map((c) => c.key), zoom, { width: box.clientWidth, height: box.clientHeight });
    box.scrollLeft = view.left;
    box.scrollTop = view.top;
  }, [laid, componentKeys, zoom, recentre]);

  // 100% again, back on the components.
  const resetView = (): void => {
    centredOn.current = null;
    opening.current = 'centre';
    setZoom(1);
    setRecentre((n) => n + 1);
  };

  // Zooming keeps the middle of the viewport where it was.
  const zoomTo = (next: number): void => {
    const box = viewport.current;
    if (box !== null) {
      const cx = (box.scrollLeft + box.clientWidth / 2) / zoom;
      const cy = (box.scrollTop + box.clientHeight / 2) / zoom;
      pendingScroll.current = { x: cx * next - box.clientWidth / 2, y: cy * next - box.clientHeight / 2 };
    }
    setZoom(next);
  };
  const pendingScroll = useRef<{ x: number; y: number } | null>(null);
  useLayoutEffect(() => {
    const box = viewport.current;
    const to = pendingScroll.current;
    if (box === null || to === null) return;
    pendingScroll.current = null;
    box.scrollLeft = Math.max(0, to.x);
    box.scrollTop = Math.max(0, to.y);
  }, [zoom]);

  const toggleLayer = (id: LayerId): void => {
    const next = new Set(layers);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setLayers(next);
    writeLayers(browserStorage(), userId, next);
  };

  const fit = (): void => {
    const box = viewport.current;
    if (box === null || laid === null || !('layout' in laid)) return;
    zoomTo(fitScale(laid.layout, box));
  };
  const stepZoom = (dir: 1 | -1): void => {
    const i = zoomSteps.findIndex((z) => z >= zoom - 0.001);
    const at = i === -1 ? zoomSteps.length - 1 : i;
    const next = zoomSteps[Math.min(Math.max(zoomSteps[at] === zoom ? at + dir : dir > 0 ? at : at - 1, 0), zoomSteps.length - 1)];
    if (next !== undefined) zoomTo(next);
  };

  // Drag to pan: the viewport scrolls, so scroll bars and the keyboard keep working too.
  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>): void => {
    if (e.button !== 0 || viewport.current === null) return;
    drag.current = { x: e.clientX, y: e.clientY, left: viewport.current.scrollLeft, top: viewport.current.scrollTop, id: e.pointerId };
    viewport.current.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>): void => {
    const d = drag.current;
    if (d === null || viewport.current === null || d.id !== e.pointerId) return;
    viewport.current.scrollLeft = d.left - (e.clientX - d.x);
    viewport.current.scrollTop = d.top - (e.clientY - d.y);
  };
  const endDrag = (e: ReactPointerEvent<HTMLDivElement>): void => {
    if (drag.current?.id === e.pointerId) {
      drag.current = null;
      viewport.current?.releasePointerCapture(e.pointerId);
    }
  };

  const busy = laid === null || laid.of !== visible;
  const layout = laid !== null && 'layout' in laid ? laid.layout : null;
  const shownCards = laid !== null && 'layout' in laid ? laid.of.cards : [];
  const shownEdges = layout?.edges ?? [];
  const linked = useMemo(() => {
    if (hovered === null) return null;
    const keys = new Set([hovered]);
    for (const e of shownEdges) if (e.from === hovered || e.to === hovered) keys.add(e.from).add(e.to);
    return keys;
  }, [hovered, shownEdges]);

  return (
    <section className="card card-flush dependency-map" data-testid="dependency-map" aria-label="Dependency map" aria-busy={busy}>
      <div className="map-toolbar">
        <h2 className="map-title">Dependency map</h2>
        <fieldset className="segmented" data-testid="map-hops">
          <legend className="visually-hidden">Hops shown</legend>
          {hopChoices.map((n) => (
            <span key={n} className="segment">
              <input
                id={`${idPrefix}-hops-${String(n)}`}
                type="radio"
                name={`${idPrefix}-hops`}
                checked={hops === n}
                disabled={n > maxHops}
                onChange={() => { setChosenHops(n); }}
                data-testid={`map-hops-${String(n)}`}
              />
              <label htmlFor={`${idPrefix}-hops-${String(n)}`} title={n > maxHops ? 'The preview walks one hop' : n === 0 ? 'The components only' : `Callers and callees ${pluralize(n, 'hop')} out`}>
                +{n}
              </label>
            </span>
          ))}
        </fieldset>
        <fieldset className="segmented" data-testid="map-direction">
          <legend className="visually-hidden">Direction</legend>
          {directions.map((d) => (
            <span key={d.id} className="segment">
              <input
                id={`${idPrefix}-direction-${d.id}`}
                type="radio"
                name={`${idPrefix}-direction`}
                checked={direction === d.id}
                onChange={() => { setDirection(d.id); }}
                data-testid={`map-direction-${d.id}`}
              />
              <label htmlFor={`${idPrefix}-direction-${d.id}`}>{d.label}</label>
            </span>
          ))}
        </fieldset>
        <div className="map-zoom" role="group" aria-label="Zoom">
          <button type="button" className="btn btn-small" onClick={() => { stepZoom(-1); }} aria-label="Zoom out" disabled={zoom <= zoomSteps[0]}>
            −
          </button>
          <button type="button" className="link-button map-zoom-value mono" onClick={resetView} title="Back to 100%, on the components" data-testid="map-zoom">
            {Math.round(zoom * 100)}%
          </button>
          <button type="button" className="btn btn-small" onClick={() => { stepZoom(1); }} aria-label="Zoom in" disabled={zoom >= zoomSteps[zoomSteps.length - 1]!}>
            +
          </button>
          <button type="button" className="btn btn-small" onClick={fit} data-testid="map-fit">
            Fit
          </button>
        </div>
      </div>
      <div className="map-layers" role="group" aria-label="Layers" data-testid="map-layers">
        <span className="map-layers-label muted small">Layers</span>
        {mapLayers.map((l) => (
          <button
            key={l.id}
            type="button"
            className="chip"
            aria-pressed={layers.has(l.id)}
            onClick={() => { toggleLayer(l.id); }}
            data-testid="map-layer"
            data-layer={l.id}
          >
            {l.label}
            <span className="chip-count">{visible.layerCounts[l.id]}</span>
          </button>
        ))}
      </div>
      <div
        ref={viewport}
        className="map-viewport"
        // A small map does not leave a screenful of empty canvas under it.
        style={layout === null ? undefined : { height: `min(clamp(360px, 68vh, 780px), ${String(Math.ceil(layout.height * zoom) + VIEWPORT_PAD)}px)`, minHeight: 160 }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        data-testid="map-viewport"
      >
        {laid !== null && 'error' in laid && <p className="banner banner-error">The map could not be laid out: {laid.error}</p>}
        {layout === null && laid === null && <p className="muted pad">Laying out the map…</p>}
        {layout !== null && shownCards.length === 0 && <p className="muted pad">Nothing to draw at these settings.</p>}
        {layout !== null && (
          <div className="map-stage" style={{ width: layout.width * zoom, height: layout.height * zoom }}>
            <div className="map-canvas" style={{ width: layout.width, height: layout.height, transform: `scale(${String(zoom)})` }}>
              <svg className="map-edges" width={layout.width} height={layout.height} aria-hidden="true">
                <defs>
                  <marker id={markerId} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M0,0 L10,5 L0,10 z" className="map-arrow" />
                  </marker>
                </defs>
                {shownEdges.map((e) => {
                  const dim = linked !== null && !(linked.has(e.from) && linked.has(e.to) && (e.from === hovered || e.to === hovered));
                  const classes = ['map-edge', `map-edge-${e.via}`];
                  if (e.through.length > 0) classes.push('map-edge-bridged');
                  if (dim) classes.push('map-edge-dim');
                  else if (linked !== null) classes.push('map-edge-active');
                  return (
                    <path
                      key={e.id}
                      d={e.d}
                      className={classes.join(' ')}
                      markerEnd={e.via === 'calls' ? `url(#${markerId})` : undefined}
                      data-testid="map-edge"
                      data-from={e.from}
                      data-to={e.to}
                      data-via={e.via}
                      data-bridged={e.through.length > 0}
                      data-through={e.through.join(' ')}
                    >
                      <title>
                        {e.via === 'calls' ? `${e.from} calls ${e.to}` : `${e.from} runs on ${e.to}`}
                        {e.through.length > 0 ? ` (through ${e.through.join(', ')})` : ''}
                      </title>
                    </path>
                  );
                })}
              </svg>
              {shownCards.map((card) => {
                const at = layout.cards.get(card.key);
                if (at === undefined) return null;
                return (
                  <MapCardView
                    key={card.key}
                    card={card}
                    at={at}
                    component={isComponentCard(card, componentKeys)}
                    active={linked?.has(card.key) ?? false}
                    onHover={setHovered}
                  />
                );
              })}
            </div>
          </div>
        )}
      </div>
      <div className="map-footer">
        <span className="map-legend">
          <span className="legend-swatch legend-component" /> component
          <span className="legend-swatch legend-silenced" /> silenced
          <span className="legend-swatch legend-plain" /> not silenced
          <svg width="28" height="8" aria-hidden="true"><path d="M1,4 L27,4" className="map-edge map-edge-calls" /></svg> calls
          <svg width="28" height="8" aria-hidden="true"><path d="M1,4 L27,4" className="map-edge map-edge-runs-on" /></svg> runs on
          <svg width="28" height="8" aria-hidden="true"><path d="M1,4 L27,4" className="map-edge map-edge-runs-on map-edge-bridged" /></svg> runs on, over a hidden card
        </span>
        {caption !== undefined && (
          <span className="map-caption small" data-testid="map-caption">
            {caption}
          </span>
        )}
        <span className="muted small" data-testid="map-count">
          {visible.cards.length} of {blast.nodes.length} cards drawn · layers change the drawing only, never what the change silences
        </span>
      </div>
    </section>
  );
}
