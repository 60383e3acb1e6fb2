"""Privacy models: yes/no properties of a released table (PDPC guide, Step 4 and Annex C),
as ARX's ``criteria`` package keeps them apart from risk models and utility metrics."""
