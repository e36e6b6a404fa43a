// The save of a CRUD dialog: the form checked first (a refused field says so itself), the call, "saved", the
// answer handed on; a failure worded by useErrorText in the feature's namespace, and the dialog left open.
import { useState } from 'react';
import { App, type FormInstance } from 'antd';
import { useErrorText } from '../errorText';

export function useSave(ns: string, done?: string) {
  const { message } = App.useApp();
  const errorText = useErrorText(ns);
  const [saving, setSaving] = useState(false);

  /** Runs the call; then gets its answer once it succeeded. */
  const save = async <T>(call: () => Promise<T>, then: (answer: T) => void): Promise<void> => {
    setSaving(true);
    try {
      const answer = await call();
      if (done) message.success(done);
      then(answer);
    } catch (e) {
      message.error(errorText(e));
    } finally {
      setSaving(false);
    }
  };

  /** Checks form, then saves its values (nothing is called while a field is refused). */
  const submit = async <V, T>(form: FormInstance<V>, call: (values: V) => Promise<T>, then: (answer: T) => void): Promise<void> => {
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    await save(() => call(values), then);
  };

  return { saving, save, submit };
}
