// Spreadsheet export of the safety screens (.xlsx, exceljs loaded only when a dispatcher exports).
export interface SheetColumn {
  header: string;
  key: string;
  width?: number;
}

export async function exportXlsx(fileName: string, sheetName: string, columns: SheetColumn[], rows: Record<string, string | number>[]): Promise<void> {
  const { default: ExcelJS } = (await import('exceljs')) as unknown as { default: typeof import('exceljs') };
  const wb = new ExcelJS.Workbook();
  wb.created = new Date();
  const ws = wb.addWorksheet(sheetName.slice(0, 31) || 'Sheet1');
  ws.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 18 }));
  ws.addRows(rows);
  ws.getRow(1).font = { bold: true };
  ws.views = [{ state: 'frozen', ySplit: 1 }];
  const buf = await wb.xlsx.writeBuffer();
  const blob = new Blob([buf], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = fileName.endsWith('.xlsx') ? fileName : `${fileName}.xlsx`;
  a.dataset.testid = 'xlsx-download';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
