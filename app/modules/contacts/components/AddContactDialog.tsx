import { useFetcher } from "@remix-run/react";
import { UserPlus } from "lucide-react";
import { createContext, useCallback, useContext, useRef, useState } from "react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { FieldShell } from "~/components/ui/FieldShell";
import { Modal } from "~/components/ui/Modal";
import { SubmissionKey } from "~/modules/sync/components/SubmissionKey";
import { choices, SELECT_CLASS, SelectField } from "~/components/ui/SelectField";
import { toast } from "~/components/ui/Toaster";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { CONTACT_SOURCES, CONTACT_STATUSES, PROPERTY_TYPES } from "~/db/enums";
import { CONTACT_MESSAGES, PROPERTY_TYPE_LABELS, SOURCE_LABELS, STATUS_LABELS, type PossibleDuplicate } from "../contacts.messages";
import { DuplicateWarning } from "./DuplicateWarning";
import { TagInput } from "./TagInput";

// Spec section 2 "Add New Contact dialog" and section 4: open, submitting, then reset, close and offer undo.
export const CONTACTS_ACTION = "/contacts?index";

type CreateResult =
  | { ok: true; contact: { id: string; name: string } }
  | { ok: false; error: string; fieldErrors: Record<string, string>; duplicates?: PossibleDuplicate[] };
type DeleteResult = { ok: boolean; deleted: number };

const AddContactContext = createContext<() => void>(() => {});
/** Opens the Add New Contact dialog from anywhere in the signed-in app. */
export const useOpenAddContact = () => useContext(AddContactContext);

/** Spec section 5: a name, and a phone or an e-mail. */
function missing(form: HTMLFormElement, check: ("name" | "reach")[]): Record<string, string> {
  const data = new FormData(form);
  const value = (name: string) => String(data.get(name) ?? "").trim();
  const problems: Record<string, string> = {};
  if (check.includes("name") && !value("name")) problems.name = CONTACT_MESSAGES.nameRequired;
  if (check.includes("reach") && !value("phone") && !value("email")) problems.phone = CONTACT_MESSAGES.phoneOrEmail;
  return problems;
}

export function AddContactProvider({ children }: { children: React.ReactNode }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const create = useFetcher<CreateResult>();
  const undo = useFetcher<DeleteResult>();
  const [formKey, setFormKey] = useState(0);
  const [tags, setTags] = useState<string[]>([]);
  const [required, setRequired] = useState({ name: "", reach: "" });
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  // The server's warning that this e-mail or phone is another contact's (duplicates.server.ts), until the next answer.
  const [duplicates, setDuplicates] = useState<PossibleDuplicate[] | null>(null);
  const saving = create.state !== "idle";
  const ready = required.name.trim() !== "" && required.reach.trim() !== "";
  const serverErrors = create.data && !create.data.ok ? create.data.fieldErrors : {};
  const errors = { ...serverErrors, ...clientErrors };

  const open = useCallback(() => {
    setClientErrors({});
    setDuplicates(null);
    dialogRef.current?.showModal();
  }, []);

  // The outcome of a save: reset and close with an undo, or keep everything and say so.
  useFetcherResult(create, (result) => {
    setDuplicates(!result.ok && result.duplicates?.length ? result.duplicates : null);
    if (!result.ok && result.duplicates?.length) return;
    if (result.ok) {
      setTags([]);
      setRequired({ name: "", reach: "" });
      setFormKey((key) => key + 1);
      dialogRef.current?.close();
      const id = result.contact.id;
      toast({
        title: CONTACT_MESSAGES.added,
        description: result.contact.name,
        variant: "success",
        actions: [
          { label: "View Contact", altText: "View the new contact", href: `/contacts?highlight=${encodeURIComponent(id)}`, newTab: true },
          {
            label: "Undo",
            altText: "Undo adding the contact",
            onClick: () => undo.submit({ intent: "delete", id }, { method: "post", action: CONTACTS_ACTION }),
          },
        ],
      });
    } else if (Object.keys(result.fieldErrors).length > 0) {
      toast({ title: CONTACT_MESSAGES.validationTitle, description: Object.values(result.fieldErrors)[0], variant: "destructive" });
    } else {
      toast({ title: "Error", description: CONTACT_MESSAGES.addFailed, variant: "destructive" });
    }
  });

  useFetcherResult(undo, (result) => {
    if (result.ok && result.deleted > 0) toast({ title: CONTACT_MESSAGES.removed, variant: "success" });
    else toast({ ...CONTACT_MESSAGES.undoFailed, variant: "destructive" });
  });

  return (
    <AddContactContext.Provider value={open}>
      {children}
      <button
        type="button"
        onClick={open}
        aria-label="Add New Contact"
        className="fixed bottom-24 right-4 z-40 inline-flex h-14 w-14 items-center justify-center rounded-full bg-brand-700 text-white shadow-lg hover:bg-brand-800 md:bottom-8 md:right-8 dark:bg-brand-400 dark:text-stone-950 dark:hover:bg-brand-300"
      >
        <UserPlus aria-hidden="true" className="h-6 w-6" />
      </button>
      <Modal ref={dialogRef} id="add-contact" title="Add New Contact" wide>
        <create.Form
          key={formKey}
          ref={formRef}
          method="post"
          action={CONTACTS_ACTION}
          noValidate
          className="grid gap-4 sm:grid-cols-2"
          onChange={(event) => {
            const form = event.currentTarget;
            const value = (name: string) => String(new FormData(form).get(name) ?? "");
            setRequired({ name: value("name"), reach: value("phone") + value("email") });
          }}
          onBlur={(event) => {
            // Say what is missing once a required field has been visited and left empty.
            const target: EventTarget = event.target;
            const name = target instanceof HTMLInputElement ? target.name : "";
            if (name === "name" || name === "phone" || name === "email")
              setClientErrors(missing(event.currentTarget, name === "name" ? ["name"] : ["name", "reach"]));
          }}
          onSubmit={(event) => {
            const problems = missing(event.currentTarget, ["name", "reach"]);
            setClientErrors(problems);
            if (Object.keys(problems).length > 0) {
              event.preventDefault();
              toast({ title: CONTACT_MESSAGES.validationTitle, description: Object.values(problems)[0], variant: "destructive" });
            }
          }}
        >
          <input type="hidden" name="intent" value="create" />
          {/* A retry of a save that got no answer (a slow one, a reload) is answered with the first contact, not a second. */}
          <SubmissionKey name="add-contact" answer={create.data} />
          <div className="sm:col-span-2">
            {/* eslint-disable-next-line jsx-a11y/no-autofocus -- focus moves into the dialog the agent just opened */}
            <Field label="Name" name="name" autoComplete="off" required error={errors.name} autoFocus />
          </div>
          <Field label="Phone" name="phone" type="tel" inputMode="tel" autoComplete="off" error={errors.phone} />
          <Field label="Email" name="email" type="email" inputMode="email" autoComplete="off" error={errors.email} />
          <SelectField name="status" label="Status" options={choices(CONTACT_STATUSES, STATUS_LABELS)} defaultValue="cold" />
          <SelectField name="source" label="Source" options={choices(CONTACT_SOURCES, SOURCE_LABELS)} defaultValue="other" />
          <Field label="Budget min ($)" name="budgetMin" inputMode="numeric" error={errors.budgetMin} />
          <Field label="Budget max ($)" name="budgetMax" inputMode="numeric" error={errors.budgetMax} />
          <SelectField name="propertyType" label="Property type" options={choices(PROPERTY_TYPES, PROPERTY_TYPE_LABELS)} defaultValue="house" />
          <Field label="Preferred location" name="location" error={errors.location} />
          <Field label="Bedrooms" name="bedrooms" inputMode="numeric" error={errors.bedrooms} />
          <Field label="Bathrooms" name="bathrooms" inputMode="numeric" error={errors.bathrooms} />
          <div className="sm:col-span-2">
            <TagInput tags={tags} onChange={setTags} />
          </div>
          <div className="sm:col-span-2">
            <FieldShell id="add-notes" label="Notes" error={errors.notes}>
              <textarea name="notes" rows={3} className={`${SELECT_CLASS} py-2`} />
            </FieldShell>
          </div>
          {duplicates ? (
            <DuplicateWarning
              duplicates={duplicates}
              saving={saving && create.formData?.get("duplicateOk") === "1"}
              onOpen={() => dialogRef.current?.close()}
            />
          ) : null}
          <div className="flex flex-wrap justify-end gap-3 sm:col-span-2">
            <Button type="button" variant="secondary" onClick={() => dialogRef.current?.close()}>
              Cancel
            </Button>
            <Button type="submit" busy={saving} busyLabel="Adding…" disabled={!ready}>
              Add Contact
            </Button>
          </div>
        </create.Form>
      </Modal>
    </AddContactContext.Provider>
  );
}
