"""One screen per task: campaigns, dashboard, force builder, help (battle screens plug in here too)."""
