import { describe, expect, it } from 'vitest';
import { clip, edgeLabel, layoutGraph } from './graph';
import type { GraphRel } from './graph';

const rel = (id: string, type: string, s: string, t: string): GraphRel => ({
  id,
  relationship_type: type,
  source_entity_id: s,
  target_entity_id: t,
});

describe('layoutGraph', () => {
  const rels = [
    rel('r1', 'PART_OF', 'ent_item', 'ent_inv'),
    rel('r2', 'REFERS_TO', 'ent_inv', 'ent_vendor'),
    rel('r3', 'REFERS_TO', 'ent_inv', 'ent_customer'),
    rel('r4', 'SETTLES', 'ent_tx', 'ent_inv'),
  ];

  it('places each neighbour once, with its edges and their direction', () => {
    const g = layoutGraph('ent_inv', rels, { cx: 100, cy: 100, r: 50 });
    expect(g.centre).toEqual({ x: 100, y: 100 });
    expect(g.nodes.map((n) => n.id)).toEqual(['ent_item', 'ent_customer', 'ent_vendor', 'ent_tx']);
    expect(g.nodes[0].edges).toEqual([{ id: 'r1', type: 'PART_OF', outbound: false }]);
    expect(g.nodes[1].edges).toEqual([{ id: 'r3', type: 'REFERS_TO', outbound: true }]);
    // on the circle, starting at the top
    expect(g.nodes[0]).toMatchObject({ x: 100, y: 50 });
    for (const n of g.nodes) expect(Math.hypot(n.x - 100, n.y - 100)).toBeCloseTo(50, 0);
    expect(g.hidden).toBe(0);
  });

  it('merges several relationships with one neighbour and skips self-links', () => {
    const g = layoutGraph('a', [rel('1', 'REFERS_TO', 'a', 'b'), rel('2', 'DEPENDS_ON', 'b', 'a'), rel('3', 'REFERS_TO', 'a', 'a')], { cx: 0, cy: 0, r: 10 });
    expect(g.nodes).toHaveLength(1);
    expect(g.nodes[0].edges.map((e) => e.id)).toEqual(['1', '2']);
  });

  it('puts one or two neighbours left and right on an ellipse', () => {
    const g = layoutGraph('a', [rel('1', 'X', 'a', 'b'), rel('2', 'X', 'a', 'c')], { cx: 100, cy: 50, rx: 80, ry: 0 });
    expect(g.nodes.map((n) => [n.x, n.y])).toEqual([
      [20, 50],
      [180, 50],
    ]);
  });

  it('draws at most max neighbours and counts the hidden relationships', () => {
    const many = Array.from({ length: 20 }, (_, i) => rel(`r${i}`, 'REFERS_TO', 'c', `n${String(i).padStart(2, '0')}`));
    const g = layoutGraph('c', many, { cx: 0, cy: 0, r: 10, max: 14 });
    expect(g.nodes).toHaveLength(14);
    expect(g.hidden).toBe(6);
  });

  it('ignores relationships that do not touch the centre', () => {
    expect(layoutGraph('a', [rel('1', 'X', 'b', 'c')], { cx: 0, cy: 0, r: 1 }).nodes).toEqual([]);
  });
});

describe('labels', () => {
  it('edgeLabel', () => {
    const edges = [
      { id: '1', type: 'PART_OF', outbound: true },
      { id: '2', type: 'REFERS_TO', outbound: false },
      { id: '3', type: 'PART_OF', outbound: true },
    ];
    expect(edgeLabel(edges)).toBe('PART_OF, REFERS_TO');
    expect(edgeLabel(edges, true)).toBe('PART_OF →, ← REFERS_TO');
  });
  it('clip', () => {
    expect(clip('short', 10)).toBe('short');
    expect(clip('a very long entity name', 10)).toBe('a very lo…');
  });
});
