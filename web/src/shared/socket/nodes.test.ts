// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { NodeList, wsUrlOf } from './nodes';

describe('node list', () => {
  it('turns a base URL into its socket URL', () => {
    expect(wsUrlOf('http://127.0.0.1:8092')).toBe('ws://127.0.0.1:8092/ds/ws');
    expect(wsUrlOf('https://b.example/')).toBe('wss://b.example/ds/ws');
    expect(wsUrlOf('ftp://x')).toBeUndefined();
    expect(wsUrlOf('not a url')).toBeUndefined();
  });

  it('stays on its one URL until the login lists the nodes, then rotates through them', () => {
    const n = new NodeList('ws://a:8091/ds/ws', 0);
    expect(n.next()).toBe('ws://a:8091/ds/ws'); // one URL (a load balancer): always it
    n.learn(['http://a:8091', 'http://b:8092', 'http://c:8093', 'http://b:8092', 42]);
    expect(n.all()).toEqual(['ws://a:8091/ds/ws', 'ws://b:8092/ds/ws', 'ws://c:8093/ds/ws']);
    expect([n.next(), n.next(), n.next()]).toEqual(['ws://b:8092/ds/ws', 'ws://c:8093/ds/ws', 'ws://a:8091/ds/ws']);
  });

  it('spreads the clients of a dead node over the survivors', () => {
    const firsts = new Set<string>();
    for (const spread of [0, 1, 2, 3]) {
      const n = new NodeList('ws://a:8091/ds/ws', spread);
      n.learn(['http://a:8091', 'http://b:8092', 'http://c:8093']);
      firsts.add(n.next());
    }
    expect([...firsts].sort()).toEqual(['ws://b:8092/ds/ws', 'ws://c:8093/ds/ws']);
  });

  it('keeps the node in use first when a later login comes from another node', () => {
    const n = new NodeList('ws://a:8091/ds/ws', 0);
    n.learn(['http://a:8091', 'http://b:8092', 'http://c:8093']);
    n.next(); // now on b
    n.learn(['http://b:8092', 'http://c:8093']); // a died: b lists the live ones
    expect(n.all()).toEqual(['ws://b:8092/ds/ws', 'ws://c:8093/ds/ws']);
    expect(n.current()).toBe('ws://b:8092/ds/ws');
  });

  it('ignores a reply without nodes (a node alone)', () => {
    const n = new NodeList('ws://a/ds/ws');
    n.learn(undefined);
    n.learn([]);
    n.learn('http://b');
    expect(n.all()).toEqual(['ws://a/ds/ws']);
  });
});
