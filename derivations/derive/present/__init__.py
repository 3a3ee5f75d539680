"""What a notebook shows: claims as HTML (:mod:`.render`), claim tables (:mod:`.tables`), tables of data
(:mod:`.datatable`), classifications (:mod:`.classification_view`), figures (:mod:`.plots`), the audit of the paper
(:mod:`.audit`), exercises (:mod:`.exercises`) and the paper's items (:mod:`.paper`).

Imports the classifier, the layers and the kernel; registers with the kernel how its objects show.
"""
