// Spreadsheet export of the position reports (shared/utils/xlsx).
import { writeXlsx, type Sheet } from '../../shared/utils/xlsx';

export type { Sheet };

export async function exportXlsx(fileName: string, sheets: Sheet[]): Promise<void> {
  await writeXlsx(fileName, sheets);
}
