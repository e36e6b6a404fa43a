// Spreadsheet export (.xlsx) for the report screens. exceljs is loaded only when a dispatcher exports, so it stays
// out of the console's entry chunk.
import { wallNow } from '../time/zone';

export interface SheetColumn {
  header: string;
  key: string;
  width?: number;
}

export interface Sheet {
  name: string;
  columns: SheetColumn[];
  rows: Record<string, unknown>[];
}

/** Builds the workbook (bold, frozen header row on each sheet), downloads it as fileName(.xlsx) and returns it. */
export async function writeXlsx(fileName: string, sheets: Sheet[]): Promise<Blob> {
  const { default: ExcelJS } = (await import('exceljs')) as unknown as { default: typeof import('exceljs') };
  const wb = new ExcelJS.Workbook();
  wb.creator = 'tenfour';
  wb.created = new Date();
  for (const s of sheets) {
    const ws = wb.addWorksheet(s.name.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Sheet');
    ws.columns = s.columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 18 }));
    ws.addRows(s.rows);
    ws.getRow(1).font = { bold: true };
    ws.views = [{ state: 'frozen', ySplit: 1 }];
  }
  const buf = await wb.xlsx.writeBuffer();
  const blob = new Blob([buf], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = fileName.endsWith('.xlsx') ? fileName : `${fileName}.xlsx`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  return blob;
}

/** writeXlsx of a report: the file is name-YYYYMMDD-HHmm, stamped with the customer's wall clock at the export. */
export function writeStampedXlsx(name: string, sheets: Sheet[]): Promise<Blob> {
  return writeXlsx(`${name}-${wallNow().format('YYYYMMDD-HHmm')}`, sheets);
}
