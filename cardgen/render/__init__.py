"""Drawing: plans → PDF (reportlab) and PNG (pypdfium2). Nothing here decides geometry."""
