// A small SVG line chart for docs/PERFORMANCE.md: x on a log scale (dataset sizes), one line
// per series. Hand-written so the bench needs no plotting dependency.

export interface Series {
  name: string;
  points: { x: number; y: number }[];
}

const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}

export function lineChart(title: string, yLabel: string, series: readonly Series[]): string {
  const width = 640;
  const height = 360;
  const left = 60;
  const right = 170;
  const top = 40;
  const bottom = 50;
  const xs = series.flatMap((s) => s.points.map((p) => Math.log10(p.x)));
  const ys = series.flatMap((s) => s.points.map((p) => p.y));
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs, xMin + 1);
  const yMax = Math.max(...ys, 0) * 1.1 || 1;
  const px = (x: number) =>
    left + ((Math.log10(x) - xMin) / (xMax - xMin)) * (width - left - right);
  const py = (y: number) => height - bottom - (y / yMax) * (height - top - bottom);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="14">${escapeXml(title)}</text>`,
    `<line x1="${left}" y1="${height - bottom}" x2="${width - right}" y2="${height - bottom}" stroke="black"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${height - bottom}" stroke="black"/>`,
    `<text x="15" y="${height / 2}" transform="rotate(-90 15 ${height / 2})" text-anchor="middle">${escapeXml(yLabel)}</text>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const y = (yMax / 4) * i;
    parts.push(
      `<text x="${left - 5}" y="${py(y) + 4}" text-anchor="end">${Number(y.toPrecision(2))}</text>`,
    );
  }
  const sizes = [...new Set(series.flatMap((s) => s.points.map((p) => p.x)))];
  for (const x of sizes) {
    const label = x >= 1e6 ? `${x / 1e6}M` : x >= 1e3 ? `${x / 1e3}k` : String(x);
    parts.push(
      `<text x="${px(x)}" y="${height - bottom + 18}" text-anchor="middle">${label}</text>`,
    );
  }
  parts.push(
    `<text x="${(left + width - right) / 2}" y="${height - 10}" text-anchor="middle">statuses stored</text>`,
  );
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const points = s.points.map((p) => `${px(p.x)},${py(p.y)}`).join(" ");
    parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${points}"/>`);
    for (const p of s.points)
      parts.push(`<circle cx="${px(p.x)}" cy="${py(p.y)}" r="3" fill="${color}"/>`);
    parts.push(
      `<text x="${width - right + 10}" y="${top + 16 * i + 10}" fill="${color}">${escapeXml(s.name)}</text>`,
    );
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
