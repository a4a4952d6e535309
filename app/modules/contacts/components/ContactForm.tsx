import { Form, Link, useBlocker, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { Button, buttonClass } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { FieldShell } from "~/components/ui/FieldShell";
import { Modal } from "~/components/ui/Modal";
import { choices, SELECT_CLASS, SelectField } from "~/components/ui/SelectField";
import { CONTACT_SOURCES, CONTACT_STATUSES, PROPERTY_TYPES } from "~/db/enums";
import type { Contact } from "~/db/schema";
import { PROPERTY_TYPE_LABELS, SOURCE_LABELS, STATUS_LABELS, type PossibleDuplicate } from "../contacts.messages";
import { DuplicateWarning } from "./DuplicateWarning";
import { TagInput } from "./TagInput";

type Editable = Pick<
  Contact,
  | "name"
  | "phone"
  | "email"
  | "status"
  | "source"
  | "budgetMin"
  | "budgetMax"
  | "propertyType"
  | "location"
  | "bedrooms"
  | "bathrooms"
  | "company"
  | "timeline"
  | "address"
  | "tags"
  | "notes"
>;

const serialize = (form: HTMLFormElement) => JSON.stringify([...new FormData(form).entries()].map(([key, value]) => [key, String(value)]));

/**
 * The profile's edit form. Changes that are not saved are not lost silently: leaving inside the app asks
 * first (Remix's useBlocker), and closing or reloading the tab gets the browser's own warning.
 */
export function ContactForm({
  contact,
  errors,
  duplicates = null,
  cancelHref,
}: {
  contact: Editable;
  errors: Record<string, string>;
  /** The server's warning that the e-mail or phone just entered is another contact's (duplicates.server.ts). */
  duplicates?: readonly PossibleDuplicate[] | null;
  cancelHref: string;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const initial = useRef<string | null>(null);
  const saving = useRef(false);
  const [tags, setTags] = useState(contact.tags);
  const [dirty, setDirty] = useState(false);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "update";

  const check = useCallback(() => {
    if (!formRef.current) return;
    const now = serialize(formRef.current);
    initial.current ??= now;
    setDirty(now !== initial.current);
  }, []);
  // The first check records the form as loaded; the tag chips change hidden inputs, which fire no input event.
  useEffect(check, [check, tags]);
  // A refused save comes back with errors: the next leave asks again.
  useEffect(() => {
    if (navigation.state === "idle") saving.current = false;
  }, [navigation.state]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !saving.current && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  const leaveRef = useRef<HTMLDialogElement>(null);
  const discarding = useRef(false);
  useEffect(() => {
    if (blocker.state !== "blocked" || leaveRef.current?.open) return;
    discarding.current = false;
    leaveRef.current?.showModal();
  }, [blocker.state]);

  return (
    <>
      <Form
        ref={formRef}
        method="post"
        noValidate
        preventScrollReset
        aria-label="Contact details"
        className="grid gap-x-4 gap-y-3 sm:grid-cols-2"
        onInput={check}
        onChange={check}
        onSubmit={() => {
          saving.current = true;
        }}
      >
        <input type="hidden" name="intent" value="update" />
        <div className="sm:col-span-2">
          {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the form opens when the agent asks to edit, on its first field */}
          <Field label="Name" name="name" defaultValue={contact.name} required error={errors.name} autoFocus />
        </div>
        <Field label="Phone" name="phone" type="tel" inputMode="tel" defaultValue={contact.phone ?? ""} error={errors.phone} />
        <Field label="Email" name="email" type="email" inputMode="email" defaultValue={contact.email ?? ""} error={errors.email} />
        <SelectField name="status" label="Status" options={choices(CONTACT_STATUSES, STATUS_LABELS)} defaultValue={contact.status} />
        <SelectField name="source" label="Source" options={choices(CONTACT_SOURCES, SOURCE_LABELS)} defaultValue={contact.source} />
        <Field label="Budget min ($)" name="budgetMin" inputMode="numeric" defaultValue={contact.budgetMin ?? ""} error={errors.budgetMin} />
        <Field label="Budget max ($)" name="budgetMax" inputMode="numeric" defaultValue={contact.budgetMax ?? ""} error={errors.budgetMax} />
        <SelectField
          name="propertyType"
          label="Property type"
          options={choices(PROPERTY_TYPES, PROPERTY_TYPE_LABELS)}
          defaultValue={contact.propertyType}
        />
        <Field label="Preferred location" name="location" defaultValue={contact.location ?? ""} error={errors.location} />
        <Field label="Bedrooms" name="bedrooms" inputMode="numeric" defaultValue={contact.bedrooms ?? ""} error={errors.bedrooms} />
        <Field label="Bathrooms" name="bathrooms" inputMode="numeric" defaultValue={contact.bathrooms ?? ""} error={errors.bathrooms} />
        <Field label="Company" name="company" defaultValue={contact.company ?? ""} error={errors.company} />
        <Field label="Timeline" name="timeline" defaultValue={contact.timeline ?? ""} error={errors.timeline} />
        <div className="sm:col-span-2">
          <Field label="Address" name="address" defaultValue={contact.address ?? ""} error={errors.address} />
        </div>
        <div className="sm:col-span-2">
          <TagInput tags={tags} onChange={setTags} />
        </div>
        <div className="sm:col-span-2">
          <FieldShell id="notes" label="Notes" error={errors.notes}>
            <textarea name="notes" rows={4} defaultValue={contact.notes ?? ""} className={`${SELECT_CLASS} py-2`} />
          </FieldShell>
        </div>
        {duplicates ? <DuplicateWarning duplicates={duplicates} saving={busy && navigation.formData?.get("duplicateOk") === "1"} /> : null}
        <div className="flex flex-wrap gap-2 sm:col-span-2">
          <Button type="submit" busy={busy} busyLabel="Saving…">
            Save changes
          </Button>
          <Link to={cancelHref} preventScrollReset className={buttonClass("secondary")}>
            Cancel
          </Link>
        </div>
      </Form>
      <Modal
        ref={leaveRef}
        id="leave-contact-form"
        title="Discard your changes?"
        onClose={() => {
          // Closed by Esc, the X or "Keep editing": stay. "Discard changes" has already let the navigation go.
          if (!discarding.current && blocker.state === "blocked") blocker.reset();
        }}
      >
        <p>You changed this contact's details without saving. Leaving now discards those changes.</p>
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the safe choice takes focus in the dialog that just opened */}
          <Button type="button" variant="secondary" autoFocus onClick={() => leaveRef.current?.close()}>
            Keep editing
          </Button>
          <Button
            type="button"
            variant="danger"
            onClick={() => {
              discarding.current = true;
              leaveRef.current?.close();
              if (blocker.state === "blocked") blocker.proceed();
            }}
          >
            Discard changes
          </Button>
        </div>
      </Modal>
    </>
  );
}
