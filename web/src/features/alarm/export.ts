// Spreadsheet export of the safety screens: one sheet (shared/utils/xlsx).
import { writeXlsx, type SheetColumn } from '../../shared/utils/xlsx';

export type { SheetColumn };

export async function exportXlsx(fileName: string, sheetName: string, columns: SheetColumn[], rows: Record<string, string | number>[]): Promise<void> {
  await writeXlsx(fileName, [{ name: sheetName, columns, rows }]);
}
