// A table cell of the map's panels: a colour dot and a name. The whole name is its tooltip, since an ellipsis column
// cuts it and antd only adds that tooltip to cells of plain text.
export function NameCell({ color, name }: { color: string; name: string }) {
  return (
    <span title={name}>
      <span className="map-state-dot" style={{ background: color, marginRight: 6, verticalAlign: 'middle' }} />
      {name}
    </span>
  );
}
