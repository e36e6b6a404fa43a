// The /message-data spreadsheet: a summary sheet and a messages sheet (shared/utils/xlsx).
export { writeXlsx, type Sheet } from '../../shared/utils/xlsx';
