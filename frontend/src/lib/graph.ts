// The entity screen's relationship graph: the entity in the middle, its neighbours on a circle,
// one labelled edge per relationship (tested in graph.test.ts).

import type { Relationship } from './types';

/** What the layout needs of a relationship. */
export type GraphRel = Pick<Relationship, 'id' | 'relationship_type' | 'source_entity_id' | 'target_entity_id'>;

export interface GraphEdge {
  id: string;
  type: string;
  /** true: the centre points at the neighbour (centre → neighbour). */
  outbound: boolean;
}

export interface GraphNode {
  id: string;
  x: number;
  y: number;
  edges: GraphEdge[];
}

export interface Graph {
  centre: { x: number; y: number };
  nodes: GraphNode[];
  /** Relationships beyond the ones drawn. */
  hidden: number;
}

/**
 * Places the neighbours of `centre` evenly on an ellipse (radii rx, ry; a circle of radius r
 * when only r is given) around (cx, cy), in a stable order (by relationship type, then neighbour
 * ID): one or two neighbours sit left and right, more start at the top. Several relationships
 * with one neighbour share its node. A relationship of the entity with itself is left out.
 */
export function layoutGraph(
  centre: string,
  rels: GraphRel[],
  opts: { cx: number; cy: number; r?: number; rx?: number; ry?: number; max?: number },
): Graph {
  const byNeighbour = new Map<string, GraphEdge[]>();
  for (const rel of rels) {
    const outbound = rel.source_entity_id === centre;
    const other = outbound ? rel.target_entity_id : rel.source_entity_id;
    if (other === centre || (!outbound && rel.target_entity_id !== centre)) continue;
    const list = byNeighbour.get(other) ?? [];
    list.push({ id: rel.id, type: rel.relationship_type, outbound });
    byNeighbour.set(other, list);
  }
  const ids = [...byNeighbour.keys()].sort((a, b) => {
    const ta = byNeighbour.get(a)![0].type;
    const tb = byNeighbour.get(b)![0].type;
    return ta.localeCompare(tb) || a.localeCompare(b);
  });
  const max = opts.max ?? 16;
  const shown = ids.slice(0, max);
  const hidden = ids.slice(max).reduce((s, id) => s + byNeighbour.get(id)!.length, 0);
  const n = shown.length;
  const rx = opts.rx ?? opts.r ?? 100;
  const ry = opts.ry ?? opts.r ?? rx;
  const start = n <= 2 ? Math.PI : -Math.PI / 2;
  const nodes = shown.map((id, i) => {
    const a = start + (2 * Math.PI * i) / Math.max(n, 1);
    return {
      id,
      x: round(opts.cx + rx * Math.cos(a)),
      y: round(opts.cy + ry * Math.sin(a)),
      edges: byNeighbour.get(id)!,
    };
  });
  return { centre: { x: opts.cx, y: opts.cy }, nodes, hidden };
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}

/**
 * The label an edge shows: its types, distinct, joined ("PART_OF, REFERS_TO"); with arrows
 * ("PART_OF →", "← REFERS_TO") when the drawing does not show the direction itself.
 */
export function edgeLabel(edges: GraphEdge[], arrows = false): string {
  const labels = edges.map((e) => (arrows ? (e.outbound ? `${e.type} →` : `← ${e.type}`) : e.type));
  return [...new Set(labels)].join(', ');
}

/** Shortens a label to at most n characters with an ellipsis. */
export function clip(s: string, n: number): string {
  return s.length <= n ? s : s.slice(0, Math.max(1, n - 1)) + '…';
}
