import { useRef } from "react";
import { Button } from "~/components/ui/Button";
import { toast } from "~/components/ui/Toaster";
import { reportFileName } from "../report";

/** The run's summary report as markdown, to copy or download as a dated file. */
export function QaReportPanel({ report, startedAt, running }: { report: string; startedAt: number; running: boolean }) {
  const reportBox = useRef<HTMLTextAreaElement>(null);

  async function copyReport() {
    try {
      await navigator.clipboard.writeText(report);
      toast({ title: "Report copied", variant: "success" });
    } catch {
      reportBox.current?.select();
      toast({ title: "Select and copy the report", description: "The browser did not allow copying; the text is selected.", variant: "destructive" });
    }
  }

  function downloadReport() {
    const url = URL.createObjectURL(new Blob([report], { type: "text/markdown;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = reportFileName(startedAt);
    link.click();
    URL.revokeObjectURL(url);
    toast({ title: "Download Started", variant: "success" });
  }

  return (
    <div className="flex flex-col gap-3">
      <label htmlFor="qa-report" className="font-medium">
        Summary Report
      </label>
      <textarea
        id="qa-report"
        ref={reportBox}
        readOnly
        value={report}
        rows={16}
        className="w-full rounded-lg border border-stone-300 bg-stone-50 p-3 font-mono text-sm dark:border-stone-700 dark:bg-stone-950"
      />
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="secondary" onClick={copyReport} disabled={running}>
          Copy Report
        </Button>
        <Button type="button" variant="secondary" onClick={downloadReport} disabled={running}>
          Download
        </Button>
      </div>
    </div>
  );
}
