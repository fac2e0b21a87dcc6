/* outer /* nested */ still */ select 1.5e-3, .5, 42 -- trailing
; ;