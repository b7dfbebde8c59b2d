-- placeholder: filled by its issue 11 work
SELECT 1;
