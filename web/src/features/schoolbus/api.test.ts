import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, setFetch } from '../../shared/http/client';
import { englishErrorText } from '../../shared/test/errorText';
import { staleKeys } from '../../shared/socket/useLiveQueries';
import { schoolbusKeys } from '../../shared/schoolbus/OnBoard';
import common from '../../shared/i18n/en-US.json';
import en from './i18n/en-US.json';
import { inputOf, SCHOOLBUS_EVENTS, schoolbusApi, studentKeys, uploadAvatar, type Student } from './api';

const locales = import.meta.glob<{ default: { errors: Record<string, string> } }>('./i18n/*.json', { eager: true });

describe('school bus, live', () => {
  it('a punch refreshes the student list, the open history and every on-board list', () => {
    expect(staleKeys(SCHOOLBUS_EVENTS, 'bus.punched', { punch: { id: 1 } })).toEqual([['schoolbus', 'students'], ['schoolbus', 'checklist'], ['schoolbus', 'onboard']]);
    expect(staleKeys(SCHOOLBUS_EVENTS, 'job.changed', {})).toEqual([]);
  });

  it('refreshes what the screen and the terminal panel query, and resyncs both from one root', () => {
    const q = { keyword: '', busId: '', pageNo: 1, pageSize: 20 };
    expect(studentKeys.students(q).slice(0, 2)).toEqual(studentKeys.students.all);
    expect(studentKeys.checklist({ studentId: 3 }).slice(0, 2)).toEqual(studentKeys.checklist.all);
    expect(schoolbusKeys.onboard('T1').slice(0, 2)).toEqual(schoolbusKeys.onboard.all);
    expect(studentKeys.all).toEqual(schoolbusKeys.all);
  });
});

type Call = { url: string; method: string; body?: unknown };

function answer(calls: Call[], result: unknown, code = '0') {
  setFetch(async (input, init) => {
    calls.push({ url: String(input), method: init?.method ?? 'GET', body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body });
    return new Response(JSON.stringify({ code, msg: '', result }), { headers: { 'Content-Type': 'application/json' } });
  });
}

describe('school bus calls', () => {
  afterEach(() => setFetch((...a) => fetch(...a)));

  it('lists with only the filters set, and sends add, update and delete as the spec names them', async () => {
    const calls: Call[] = [];
    answer(calls, { total: 0, list: [] });
    await schoolbusApi.list({ keyword: '', busId: 'T1', pageNo: 2, pageSize: 20 });
    await schoolbusApi.checklist({ studentId: 7, sTime: 1, eTime: 2, pageNo: 1, pageSize: 20 });
    const input = { ...inputOf(null), studentNum: 'S1', studentName: 'Ada', guardianName: 'Kim', guardianPhone: '5550100' };
    await schoolbusApi.add(input);
    await schoolbusApi.update(7, input);
    await schoolbusApi.remove(7);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /ds/schoolCar/list?busId=T1&pageNo=2&pageSize=20',
      'GET /ds/schoolCar/checklist?studentId=7&sTime=1&eTime=2&pageNo=1&pageSize=20',
      'POST /ds/schoolCar/add',
      'PUT /ds/schoolCar/update',
      'DELETE /ds/schoolCar/delete?id=7',
    ]);
    expect(calls[2].body).toEqual({ studentNum: 'S1', studentName: 'Ada', studentAvatar: '', studentBirth: '', studentSex: '0', guardianName: 'Kim', guardianPhone: '5550100' });
    expect(calls[3].body).toEqual({ id: 7, ...input });
  });

  it('edits a student as the server answered it', () => {
    const s = { id: 7, studentNum: 'S1', studentName: 'Ada', studentAvatar: '/filews/files/ab', studentBirth: '2015-04-02', studentSex: 2, guardianName: 'Kim', guardianPhone: '5550100' } as Student;
    expect(inputOf(s)).toEqual({ studentNum: 'S1', studentName: 'Ada', studentAvatar: '/filews/files/ab', studentBirth: '2015-04-02', studentSex: '2', guardianName: 'Kim', guardianPhone: '5550100' });
  });
});

describe('avatar upload', () => {
  const photo = new File([new Uint8Array([137, 80, 78, 71])], 'ada.png', { type: 'image/png' });

  it('uploads an image to the file service and answers its address', async () => {
    let sent: FormData | undefined;
    const url = await uploadAvatar(photo, async (_url, init) => {
      sent = init?.body as FormData;
      return new Response(JSON.stringify({ code: '0', result: { id: 'ab', url: '/filews/files/ab' } }));
    });
    expect(url).toBe('/filews/files/ab');
    expect(sent?.get('kind')).toBe('image');
    expect((sent?.get('file') as File).name).toBe('ada.png');
  });

  it("rejects with the file service's code, or as a transport failure", async () => {
    await expect(uploadAvatar(photo, async () => new Response(JSON.stringify({ code: '72', msg: 'not an image' })))).rejects.toMatchObject({ code: '72' });
    await expect(uploadAvatar(photo, async () => Promise.reject(new TypeError('offline')))).rejects.toMatchObject({ code: 'network', transport: true });
    await expect(uploadAvatar(photo, async () => new Response('<html>', { status: 502 }))).rejects.toMatchObject({ transport: true });
  });
});

const text = await englishErrorText('schoolbus', en);

describe('school bus error text', () => {
  it("words the server's school-bus codes by its own table, and the generic ones from the common namespace", () => {
    expect(text(new ApiError('137', 'required', 'errors.schoolbus.required'))).toBe(en.errors['137']);
    expect(text(new ApiError('138', 'exists', 'errors.schoolbus.numberExists'))).toBe(en.errors['138']);
    expect(text(new ApiError('139', 'phone', 'errors.schoolbus.phone'))).toBe(en.errors['139']);
    expect(text(new ApiError('161', 'avatar', 'errors.schoolbus.avatar'))).toBe(en.errors['161']);
    expect(text(new ApiError('404', 'not found', 'errors.notFound'))).toBe(common.codes['404']);
  });

  it('has a sentence for each code in all six languages', () => {
    expect(Object.keys(locales)).toHaveLength(6);
    for (const [file, { default: l }] of Object.entries(locales)) {
      for (const code of ['137', '138', '139', '161']) expect(l.errors[code], `${file} ${code}`).toMatch(/\S/);
    }
  });
});
