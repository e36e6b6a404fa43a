// Style images drawn on demand with a canvas (no sprite or glyph server is needed, so the map works offline):
// cluster counts, terminal labels, the heading arrow, and round avatars from a terminal's icon picture.

const SCALE = 2;

function canvas(w: number, h: number): [HTMLCanvasElement, CanvasRenderingContext2D] {
  const c = document.createElement('canvas');
  c.width = w * SCALE;
  c.height = h * SCALE;
  const ctx = c.getContext('2d')!;
  ctx.scale(SCALE, SCALE);
  return [c, ctx];
}

const data = (c: HTMLCanvasElement) => c.getContext('2d')!.getImageData(0, 0, c.width, c.height);

/** A count drawn in white, bold (sits on the cluster circle). */
export function countImage(text: string): ImageData {
  const font = 'bold 12px system-ui, sans-serif';
  const [, probe] = canvas(1, 1);
  probe.font = font;
  const w = Math.ceil(probe.measureText(text).width) + 4;
  const [c, ctx] = canvas(w, 16);
  ctx.font = font;
  ctx.fillStyle = '#fff';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, w / 2, 8.5);
  return data(c);
}

/** A name label with a halo, readable on any theme. */
export function labelImage(text: string, dark = false): ImageData {
  const font = '600 12px system-ui, sans-serif';
  const shown = text.length > 24 ? `${text.slice(0, 23)}…` : text;
  const [, probe] = canvas(1, 1);
  probe.font = font;
  const w = Math.ceil(probe.measureText(shown).width) + 8;
  const [c, ctx] = canvas(w, 18);
  ctx.font = font;
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3;
  ctx.strokeStyle = dark ? 'rgba(0,0,0,0.85)' : 'rgba(255,255,255,0.95)';
  ctx.strokeText(shown, 4, 9.5);
  ctx.fillStyle = dark ? '#f0f0f0' : '#1f1f1f';
  ctx.fillText(shown, 4, 9.5);
  return data(c);
}

/** A small arrow pointing up (rotated by the heading). */
export function arrowImage(color = '#1f1f1f'): ImageData {
  const [c, ctx] = canvas(14, 14);
  ctx.fillStyle = color;
  ctx.strokeStyle = '#fff';
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.moveTo(7, 0.5);
  ctx.lineTo(12.5, 12);
  ctx.lineTo(7, 9);
  ctx.lineTo(1.5, 12);
  ctx.closePath();
  ctx.stroke();
  ctx.fill();
  return data(c);
}

/** A pin for point marks, in the mark's colour. */
export function pinImage(color: string): ImageData {
  const [c, ctx] = canvas(22, 30);
  ctx.fillStyle = color;
  ctx.strokeStyle = '#fff';
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.arc(11, 10, 9, Math.PI, 0);
  ctx.quadraticCurveTo(20, 17, 11, 29);
  ctx.quadraticCurveTo(2, 17, 2, 10);
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
  ctx.fillStyle = '#fff';
  ctx.beginPath();
  ctx.arc(11, 10, 3.5, 0, Math.PI * 2);
  ctx.fill();
  return data(c);
}

/** A round avatar from a picture URL (http(s), a path on this server, or data:image/…). */
export function avatarImage(url: string): Promise<ImageData | null> {
  return new Promise((resolve) => {
    const img = new Image();
    img.crossOrigin = 'anonymous';
    img.onload = () => {
      const [c, ctx] = canvas(26, 26);
      ctx.beginPath();
      ctx.arc(13, 13, 12, 0, Math.PI * 2);
      ctx.fillStyle = '#fff';
      ctx.fill();
      ctx.save();
      ctx.beginPath();
      ctx.arc(13, 13, 11, 0, Math.PI * 2);
      ctx.clip();
      ctx.drawImage(img, 2, 2, 22, 22);
      ctx.restore();
      try {
        resolve(data(c));
      } catch {
        resolve(null); // a tainted canvas (picture from a host without CORS)
      }
    };
    img.onerror = () => resolve(null);
    img.src = url;
  });
}

/** A short stable id for a string (image ids of avatars). */
export function hashId(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}
