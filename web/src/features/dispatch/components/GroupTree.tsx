import { useEffect, useMemo, useRef, useState, type Key, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Dropdown, Empty, Tree, type MenuProps } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useDirectory } from '../../../shared/directory/store';
import { useTerminalActions } from '../../../shared/terminalActions/TerminalActions';
import { buildTree, parseKey, type TreeFilters, type TreeNode } from '../tree';
import { GroupRow } from './GroupRow';
import { TerminalRow } from './TerminalRow';
import '../dispatch.css';

export interface GroupTreeProps {
  filters: TreeFilters;
  roots?: string[];
  checkedCids: string[];
  onCheck: (cids: string[]) => void;
  onSelectTerminal: (cid: string) => void;
  /** Context menu items for a node; the key is the tree key (g:gid or t:gid:cid). A terminal's menu opens with the
   * terminal action set (call, message, video), which the tree runs itself. */
  contextMenu: (key: string) => MenuProps['items'];
  onMenu: (nodeKey: string, action: string) => void;
  emptyText: ReactNode;
}

function useHeight(ref: React.RefObject<HTMLDivElement | null>): number {
  const [h, setH] = useState(400);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([e]) => setH(Math.max(120, Math.floor(e!.contentRect.height))));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return h;
}

export const PRESENCE_REBUILD_MS = 1000;

/** The latest value, passed on at most once per `ms` (trailing). */
function useThrottled<T>(value: T, ms: number): T {
  const [out, setOut] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    const wait = last.current + ms - Date.now();
    if (wait <= 0) {
      last.current = Date.now();
      setOut(value);
      return;
    }
    const timer = setTimeout(() => {
      last.current = Date.now();
      setOut(value);
    }, wait);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return out;
}

function allGroupKeys(nodes: TreeNode[], out: string[] = []): string[] {
  for (const n of nodes) {
    if (n.kind === 'group') {
      out.push(n.key);
      if (n.children) allGroupKeys(n.children, out);
    }
  }
  return out;
}

/** Whether the context menu opened at height y opens downward: toward the larger side of the window. */
export const opensDown = (y: number, height = window.innerHeight) => y < height / 2;

/** The height the context menu opened at y may take, a margin kept from the window's edge. */
export const menuRoom = (y: number, height = window.innerHeight) => Math.max(120, (opensDown(y, height) ? height - y : y) - 8);

/** The virtualised group tree: 10,000 terminals render only the rows in view. */
export function GroupTree({ filters, roots, checkedCids, onCheck, onSelectTerminal, contextMenu, onMenu, emptyText }: GroupTreeProps) {
  const groups = useDirectory((s) => s.groups);
  const structure = useDirectory((s) => s.structure);
  // Presence changes rebuild the tree only when offline terminals are hidden, and then at most once a second:
  // rows re-render on their own, only membership of the filtered tree waits for the next rebuild.
  const presence = useThrottled(useDirectory((s) => (filters.hideOffline ? s.presence : 0)), PRESENCE_REBUILD_MS);
  const box = useRef<HTMLDivElement>(null);
  const height = useHeight(box);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [menu, setMenu] = useState<{ x: number; y: number; key: string } | null>(null);
  const actions = useTerminalActions();
  const menuItems = (key: string): MenuProps['items'] => {
    const cid = parseKey(key).cid;
    const own = contextMenu(key) ?? [];
    const set = cid ? actions.menuItems(cid) : [];
    return set.length ? [...set, { type: 'divider' as const }, ...own] : own;
  };

  const tree = useMemo(
    () => buildTree(groups, useDirectory.getState().terminals, filters, roots),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [groups, structure, presence, filters.hideOffline, filters.hideDispatcher, filters.search, filters.cameraGroup, filters.outsideGroup, roots?.join(',')],
  );
  const expandedKeys = useMemo(() => allGroupKeys(tree).filter((k) => filters.search || !collapsed.has(k)), [tree, collapsed, filters.search]);
  const checkedKeys = useMemo(() => {
    const set = new Set(checkedCids);
    const keys: string[] = [];
    const walk = (ns: TreeNode[]) => ns.forEach((n) => (n.kind === 'terminal' ? set.has(n.id) && keys.push(n.key) : n.children && walk(n.children)));
    walk(tree);
    return keys;
  }, [tree, checkedCids]);

  return (
    <div ref={box} className="group-tree" data-testid="group-tree">
      {tree.length === 0 ? (
        <Empty description={emptyText} />
      ) : (
        <Tree
          virtual
          height={height}
          itemHeight={28}
          blockNode
          checkable
          selectable
          treeData={tree as unknown as DataNode[]}
          expandedKeys={expandedKeys}
          onExpand={(_keys, info) => {
            const k = String(info.node.key);
            setCollapsed((prev) => {
              const next = new Set(prev);
              if (info.expanded) next.delete(k);
              else next.add(k);
              return next;
            });
          }}
          checkedKeys={checkedKeys}
          onCheck={(keys) => {
            const list = (Array.isArray(keys) ? keys : keys.checked) as Key[];
            const cids = new Set<string>();
            for (const k of list) {
              const p = parseKey(String(k));
              if (p.cid) cids.add(p.cid);
            }
            onCheck([...cids]);
          }}
          onSelect={(_k, info) => {
            const p = parseKey(String(info.node.key));
            if (p.cid) onSelectTerminal(p.cid);
          }}
          onRightClick={({ event, node }) => {
            event.preventDefault();
            setMenu({ x: event.clientX, y: event.clientY, key: String(node.key) });
          }}
          titleRender={(n) => {
            const p = parseKey(String(n.key));
            const extra = [filters.cameraGroup, filters.outsideGroup].find((g) => g?.gid === p.gid);
            return p.kind === 'group' ? <GroupRow gid={p.gid} fallback={extra} /> : <TerminalRow cid={p.cid!} gid={p.gid} />;
          }}
        />
      )}
      {/* The menu opens at the pointer from an anchor that stands there, in the page's body, as a plain (not
          point-aligned) dropdown: antd closes a point-aligned context menu on any scroll or resize around its anchor,
          and a tree or log re-layout, or the focus the tree takes on a right-click, closed it before the dispatcher
          could choose. A click elsewhere, Escape or a choice still closes it. It opens toward the larger side of the
          window and scrolls within the room there, never adjusted for overflow: a menu taller than the room
          below was shifted up to fit and then, at a re-render, back down — an item moved under the pointer as
          it clicked (Stun instead of Listen in a CI run). */}
      {menu &&
        createPortal(
          <Dropdown
            open
            onOpenChange={(o) => !o && setMenu(null)}
            autoAdjustOverflow={false}
            menu={{
              style: { maxHeight: menuRoom(menu.y), overflowY: 'auto' },
              items: menuItems(menu.key),
              onClick: ({ key }) => {
                const cid = parseKey(menu.key).cid;
                if (!(cid && actions.onMenu(key, cid))) onMenu(menu.key, key);
                setMenu(null);
              },
            }}
            trigger={['click']}
            placement={opensDown(menu.y) ? 'bottomLeft' : 'topLeft'}
          >
            <span style={{ position: 'fixed', left: menu.x, top: menu.y, width: 1, height: 1 }} />
          </Dropdown>,
          document.body,
        )}
    </div>
  );
}
