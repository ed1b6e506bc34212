from rummyref.cli import main

raise SystemExit(main())
