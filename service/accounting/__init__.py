"""Table games accounting: the chips at each table (tray counts, fills, credits), buy-ins at its
seats, the soft count of its drop box, and the statement that reconciles them with the rounds."""
