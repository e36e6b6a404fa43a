// Add or edit a student: card number, name, sex and birth date, the guardian's name and phone, and a photo
// uploaded to the file service. Required fields are checked here with the server's own sentence (code 137); the
// other rules (phone, unique number, photo) are the server's, and its coded refusal is worded by useSave.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar, Button, DatePicker, Form, Input, Select, Space, Upload } from 'antd';
import { DeleteOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from '../../../shared/utils/dayjs';
import { useSave } from '../../../shared/crud/useSave';
import { RecordDialog } from '../../../shared/crud/RecordDialog';
import { inputOf, MAX_NAME, MAX_NUM, schoolbusApi, uploadAvatar, type Student, type StudentInput } from '../api';

type Values = Omit<StudentInput, 'studentBirth' | 'studentAvatar'> & { studentBirth: Dayjs | null };

export function StudentDialog({ editing, open, onClose, onSaved }: { editing: Student | null; open: boolean; onClose: () => void; onSaved: (s: Student) => void }) {
  const { t } = useTranslation('schoolbus');
  const [form] = Form.useForm<Values>();
  const [avatar, setAvatar] = useState('');
  const { saving, submit } = useSave('schoolbus', t('done.saved'));
  const upload = useSave('schoolbus');

  // The form is made anew at each opening (destroyOnHidden) from these values; the photo is kept beside it.
  const initial = inputOf(editing);
  useEffect(() => {
    if (open) setAvatar(editing?.studentAvatar ?? '');
  }, [open, editing]);

  const save = () =>
    submit(
      form,
      (v) => {
        const input: StudentInput = { ...v, studentBirth: v.studentBirth ? v.studentBirth.format('YYYY-MM-DD') : '', studentAvatar: avatar };
        return editing ? schoolbusApi.update(editing.id, input) : schoolbusApi.add(input);
      },
      onSaved,
    );

  const required = [{ required: true, whitespace: true, message: t('errors.137') }];
  return (
    <RecordDialog ns="schoolbus" open={open} editing={!!editing} saving={saving} onSave={save} onClose={onClose} saveTestId="student-save">
      <Form form={form} layout="vertical" initialValues={{ ...initial, studentBirth: initial.studentBirth ? dayjs(initial.studentBirth) : null }} data-testid="student-form">
        <Form.Item label={t('col.photo')} extra={t('dialog.photoHelp')}>
          <Space>
            <Avatar size={56} src={avatar || undefined} icon={<UserOutlined />} data-testid="student-photo" data-src={avatar} />
            <Upload
              accept="image/png,image/jpeg"
              showUploadList={false}
              beforeUpload={(file) => {
                void upload.save(() => uploadAvatar(file), setAvatar);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} loading={upload.saving} data-testid="student-upload">
                {t('actions.upload')}
              </Button>
            </Upload>
            {avatar && <Button icon={<DeleteOutlined />} onClick={() => setAvatar('')} aria-label={t('actions.removePhoto')} title={t('actions.removePhoto')} />}
          </Space>
        </Form.Item>
        <Form.Item name="studentNum" label={t('col.num')} extra={t('dialog.numHelp')} rules={required}>
          <Input maxLength={MAX_NUM} data-testid="student-num" />
        </Form.Item>
        <Form.Item name="studentName" label={t('col.name')} rules={required}>
          <Input maxLength={MAX_NAME} data-testid="student-name" />
        </Form.Item>
        <Space wrap>
          <Form.Item name="studentSex" label={t('col.sex')}>
            <Select style={{ width: 140 }} options={['0', '1', '2'].map((v) => ({ value: v, label: t(`sex.${v}`) }))} data-testid="student-sex" />
          </Form.Item>
          <Form.Item name="studentBirth" label={t('col.birth')}>
            <DatePicker disabledDate={(d) => d.isAfter(dayjs())} data-testid="student-birth" />
          </Form.Item>
        </Space>
        <Form.Item name="guardianName" label={t('col.guardian')} rules={required}>
          <Input maxLength={MAX_NAME} data-testid="student-guardian" />
        </Form.Item>
        <Form.Item name="guardianPhone" label={t('col.phone')} rules={required}>
          <Input maxLength={24} inputMode="tel" data-testid="student-phone" />
        </Form.Item>
      </Form>
    </RecordDialog>
  );
}
