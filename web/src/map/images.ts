// Style images drawn on demand with a canvas (no sprite or glyph server is needed, so the map works offline):
// cluster counts, terminal labels, the heading arrow, and round avatars from a terminal's icon picture.

const SCALE = 2;
/**
 * Every image is drawn on one scratch canvas kept for reading back (device pixels): making a canvas per image made
 * the thousand cluster counts drawn when the terminal layer starts cost a second of a busy machine's main thread.
 */
const SCRATCH_W = 800;
const SCRATCH_H = 80;
let scratch: CanvasRenderingContext2D | undefined;

function context(w: number, h: number): CanvasRenderingContext2D {
  const c = document.createElement('canvas');
  c.width = w;
  c.height = h;
  return c.getContext('2d', { willReadFrequently: true })!;
}

/** Draws w × h (CSS pixels, drawn at SCALE) with paint and reads it back; own: on a canvas of its own. */
function draw(w: number, h: number, paint: (ctx: CanvasRenderingContext2D) => void, own = false): ImageData {
  const W = Math.ceil(w * SCALE);
  const H = Math.ceil(h * SCALE);
  const ctx = !own && W <= SCRATCH_W && H <= SCRATCH_H ? (scratch ??= context(SCRATCH_W, SCRATCH_H)) : context(W, H);
  ctx.clearRect(0, 0, W, H);
  ctx.save();
  ctx.scale(SCALE, SCALE);
  try {
    paint(ctx);
  } finally {
    ctx.restore();
  }
  return ctx.getImageData(0, 0, W, H);
}

/** The width of text in font (CSS pixels). */
function textWidth(font: string, text: string): number {
  const ctx = (scratch ??= context(SCRATCH_W, SCRATCH_H));
  ctx.save();
  ctx.font = font;
  const w = ctx.measureText(text).width;
  ctx.restore();
  return w;
}

/** A count drawn in white, bold (sits on the cluster circle). */
export function countImage(text: string): ImageData {
  const font = 'bold 12px system-ui, sans-serif';
  const w = Math.ceil(textWidth(font, text)) + 4;
  return draw(w, 16, (ctx) => {
    ctx.font = font;
    ctx.fillStyle = '#fff';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, w / 2, 8.5);
  });
}

/** A name label with a halo, readable on any theme. */
export function labelImage(text: string, dark = false): ImageData {
  const font = '600 12px system-ui, sans-serif';
  const shown = text.length > 24 ? `${text.slice(0, 23)}…` : text;
  const w = Math.ceil(textWidth(font, shown)) + 8;
  return draw(w, 18, (ctx) => {
    ctx.font = font;
    ctx.textBaseline = 'middle';
    ctx.lineJoin = 'round';
    ctx.lineWidth = 3;
    ctx.strokeStyle = dark ? 'rgba(0,0,0,0.85)' : 'rgba(255,255,255,0.95)';
    ctx.strokeText(shown, 4, 9.5);
    ctx.fillStyle = dark ? '#f0f0f0' : '#1f1f1f';
    ctx.fillText(shown, 4, 9.5);
  });
}

/** A small arrow pointing up (rotated by the heading). */
export function arrowImage(color = '#1f1f1f'): ImageData {
  return draw(14, 14, (ctx) => {
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
  });
}

/** A pin for point marks, in the mark's colour. */
export function pinImage(color: string): ImageData {
  return draw(22, 30, (ctx) => {
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
  });
}

/** A round avatar from a picture URL (http(s), a path on this server, or data:image/…). */
export function avatarImage(url: string): Promise<ImageData | null> {
  return new Promise((resolve) => {
    const img = new Image();
    img.crossOrigin = 'anonymous';
    img.onload = () => {
      try {
        resolve(
          draw(26, 26, (ctx) => {
            ctx.beginPath();
            ctx.arc(13, 13, 12, 0, Math.PI * 2);
            ctx.fillStyle = '#fff';
            ctx.fill();
            ctx.beginPath();
            ctx.arc(13, 13, 11, 0, Math.PI * 2);
            ctx.clip();
            ctx.drawImage(img, 2, 2, 22, 22);
          }, true), // a picture from another host could taint the scratch canvas
        );
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
