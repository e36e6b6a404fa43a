import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { initI18n } from '../../../i18n';
import { setFetch } from '../../../shared/http/client';
import { SLOW } from '../../../shared/test/popconfirm';
import en from '../i18n/en-US.json';
import type { Student } from '../api';
import { StudentDialog } from './StudentDialog';

type Sent = { method: string; url: string; body: Record<string, unknown> };

/** The /ds calls the dialog makes, each answered with code (and the student sent back). */
function serve(code: string): Sent[] {
  const sent: Sent[] = [];
  setFetch(async (url, init) => {
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    sent.push({ method: init?.method ?? 'GET', url: String(url), body });
    return new Response(JSON.stringify({ code, msg: '', result: code === '0' ? { id: 7, ...body } : undefined }));
  });
  return sent;
}

function open(editing: Student | null) {
  const onSaved = vi.fn();
  render(
    <App>
      <StudentDialog open editing={editing} onClose={() => {}} onSaved={onSaved} />
    </App>,
  );
  return onSaved;
}

const type = (id: string, value: string) => fireEvent.change(screen.getByTestId(`student-${id}`), { target: { value } });
const save = () => fireEvent.click(screen.getByTestId('student-save'));

beforeAll(() => initI18n('en-US'));
afterEach(() => {
  cleanup();
  setFetch((...a) => fetch(...a));
});

describe('student dialog', { timeout: 30_000 }, () => {
  it("refuses missing required fields with the server's own sentence, and calls nothing", async () => {
    const sent = serve('0');
    const onSaved = open(null);
    type('num', 'S1');
    save();
    await waitFor(() => expect(screen.getAllByText(en.errors['137']).length).toBe(3), SLOW);
    expect(sent).toEqual([]);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it("adds a student; a taken number is the server's code 138, worded, and the dialog is not done", async () => {
    const refused = serve('138');
    const onSaved = open(null);
    type('num', 'S1');
    type('name', 'Ada');
    type('guardian', 'Kim');
    type('phone', '5550100');
    save();
    await waitFor(() => expect(document.body.textContent).toContain(en.errors['138']), SLOW);
    expect(refused.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /ds/schoolCar/add']);
    expect(refused[0].body).toMatchObject({ studentNum: 'S1', studentName: 'Ada', guardianName: 'Kim', guardianPhone: '5550100', studentSex: '0', studentBirth: '', studentAvatar: '' });
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('edits a student by its id, keeping the fields not changed', async () => {
    const sent = serve('0');
    const ada = { id: 7, studentNum: 'S1', studentName: 'Ada', studentAvatar: '/filews/files/ab', studentBirth: '2015-04-02', studentSex: 2, guardianName: 'Kim', guardianPhone: '5550100' } as Student;
    const onSaved = open(ada);
    type('guardian', 'Selin');
    save();
    await waitFor(() => expect(onSaved).toHaveBeenCalled(), SLOW);
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual(['PUT /ds/schoolCar/update']);
    expect(sent[0].body).toEqual({ id: 7, studentNum: 'S1', studentName: 'Ada', studentAvatar: '/filews/files/ab', studentBirth: '2015-04-02', studentSex: '2', guardianName: 'Selin', guardianPhone: '5550100' });
  });
});
